import type { HttpError } from "@refinedev/core";

/**
 * A mutation's toasts, for Refine's `successNotification` and
 * `errorNotification`: the title given and the server's own words (its
 * `message`, or the error's). One key per record, so a second change updates
 * the toast instead of stacking another. `error: false` leaves the failure to
 * the page (a dialog that shows it beside its button); no `error` keeps
 * Refine's own error toast.
 */
export function answerToasts(
  key: string,
  titles: { success: string; error?: string | false },
  errorText: (error?: HttpError) => string = (error) => error?.message ?? "",
) {
  const { success, error } = titles;
  return {
    successNotification: (response?: { data?: object }) => ({
      key,
      type: "success" as const,
      description: success,
      // The function's own words when it answers a `message` (most saves do).
      message: response?.data && "message" in response.data && typeof response.data.message === "string" ? response.data.message : "",
    }),
    ...(error === false
      ? { errorNotification: false as const }
      : error === undefined
        ? {}
        : { errorNotification: (failure?: HttpError) => ({ key, type: "error" as const, description: error, message: errorText(failure) }) }),
  };
}
