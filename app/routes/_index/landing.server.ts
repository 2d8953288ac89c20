import { getZodConstraint } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { formText, isBot, readFormData } from "~/utils/forms.server";
import { wantsHtml } from "~/utils/http.server";
import { firstFieldErrors } from "~/lib/forms";
import { messages, type Message } from "~/lib/messages";
import { publicOrigin } from "~/utils/origin.server";
import { newsletterMessages, partnershipMessages } from "~/lib/messages";
import { newsletterSchema } from "~/lib/newsletter-form";
import { describePartnershipErrors, partnershipSchema, type PartnershipFields } from "~/lib/partnership-form";
import { subscribe } from "~/models/newsletter.server";
import { submitInquiry } from "~/models/partnership.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";
import { describeError } from "~/utils/errors.server";

/**
 * The landing page's two forms (requirements §2): newsletter sign-up and partnership
 * inquiry. Plain posts are redirected with a toast on success and re-rendered
 * with their values and the spec's message on failure; fetchers get JSON.
 */

/** The landing forms' field constraints, from their schemas; the loader sends them to the page. */
export const landingFormConstraints = {
  newsletter: getZodConstraint(newsletterSchema),
  partnership: getZodConstraint(partnershipSchema),
};

export type LandingFormResult = {
  form: "newsletter" | "partnership";
  ok: boolean;
  toast: Message | null;
  values: Record<string, string>;
  fieldErrors: Partial<Record<PartnershipFields, string>>;
};

export async function handleLandingForm(request: Request, clientAddress: string) {
  const formData = await readFormData(request);
  const form = formData.get("intent") === "partnership" ? "partnership" : "newsletter";
  const values: Record<string, string> =
    form === "newsletter"
      ? { email: formText(formData, "email") }
      : {
          name: formText(formData, "name"),
          email: formText(formData, "email"),
          business: formText(formData, "business"),
          message: formText(formData, "message", 6000),
        };
  const result: LandingFormResult = { form, ok: false, toast: null, values, fieldErrors: {} };
  const respond = (status: number) => data(result, { status });

  const succeed = async (toast: Message) => {
    result.ok = true;
    result.toast = toast;
    result.values = {};
    return wantsHtml(request) ? redirectWithToast(form === "newsletter" ? "/#newsletter" : "/", toast, { status: 303 }) : result;
  };

  // An empty newsletter email stops silently (requirements §5).
  if (form === "newsletter" && !values.email?.trim()) {
    return wantsHtml(request) ? redirect("/#newsletter", 303) : respond(200);
  }
  if (!(await hitRateLimit(form, clientAddress)).allowed) {
    result.toast = tooManyRequests;
    return respond(429);
  }
  const thanks = form === "newsletter" ? newsletterMessages.welcome : partnershipMessages.sent;
  if (isBot(formData)) return succeed(thanks);

  if (form === "newsletter") {
    const parsed = newsletterSchema.safeParse(values);
    if (!parsed.success) {
      result.fieldErrors = firstFieldErrors(parsed.error);
      result.toast = messages.invalidEmail;
      return respond(400);
    }
    try {
      await subscribe(parsed.data.email, publicOrigin());
    } catch (error) {
      console.error("Newsletter sign-up failed", describeError(error));
      result.toast = newsletterMessages.failed;
      return respond(500);
    }
    return succeed(thanks);
  }

  const parsed = partnershipSchema.safeParse(values);
  if (!parsed.success) {
    const { fieldErrors, message } = describePartnershipErrors(parsed.error);
    result.fieldErrors = fieldErrors;
    result.toast = message;
    return respond(400);
  }
  try {
    await submitInquiry(parsed.data);
  } catch (error) {
    console.error("Partnership inquiry failed", describeError(error));
    result.toast = partnershipMessages.failed;
    return respond(500);
  }
  return succeed(thanks);
}
