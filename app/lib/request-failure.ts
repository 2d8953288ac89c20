/**
 * What a page does when one of its in-page requests (a fetcher's post) gets
 * no usable answer: the network dropped it, the shop failed, or it took
 * longer than anyone waits. Each route's `clientAction` sends its post through
 * `sendOrFail`, so the answer is either the server's or a `RequestFailed` that
 * the page turns into its own message, keeping everything typed; a failed
 * post never reaches an error boundary. Browser-safe.
 */

export type RequestFailure = "network" | "server" | "timeout";
export type RequestFailed = { requestFailed: RequestFailure };

/**
 * How long a page waits for its own post before it gives up and says so. Longer
 * than the slowest answer the shop gives on purpose (a geocoder turn in the queue,
 * then its timeout, then Stripe's), so only a stuck request meets it.
 */
export const REQUEST_DEADLINE_MS = 30_000;

export function isRequestFailed(data: unknown): data is RequestFailed {
  return typeof data === "object" && data !== null && "requestFailed" in data;
}

/**
 * Sends a post and answers the server's data, or how it failed. A thrown
 * Response (a redirect, or one the route throws on purpose) is the router's
 * and passes through.
 */
export async function sendOrFail<T>(send: () => Promise<T>): Promise<T | RequestFailed> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<RequestFailed>((resolve) => {
    timer = setTimeout(() => resolve({ requestFailed: "timeout" }), REQUEST_DEADLINE_MS);
  });
  try {
    return await Promise.race([send(), deadline]);
  } catch (error) {
    if (error instanceof Response) throw error;
    // fetch rejects with a TypeError when the request never got an answer; the
    // router turns an answer of the shop's error page (or a proxy's) into an Error.
    return { requestFailed: error instanceof TypeError ? "network" : "server" };
  } finally {
    clearTimeout(timer);
  }
}
