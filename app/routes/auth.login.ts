import { json, type ActionFunctionArgs } from "@remix-run/node";
import { signIn } from "~/utils/auth.server";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { formText, readFormData } from "~/utils/forms.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

/**
 * The admin app's sign-in: email and password as a form; answers JSON and sets
 * the session cookie, or 429 with Retry-After while failed sign-ins must wait.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return answeringDatabaseFailures("Sign-in", async () => {
    const form = await readFormData(request);
    const credentials = { email: formText(form, "email", EMAIL_MAX_LENGTH), password: formText(form, "password", 1024) };
    const result = await signIn(credentials, { clientAddress: context.clientAddress, cookieHeader: request.headers.get("Cookie") });
    if (result.ok === false && result.reason === "throttled") {
      return json({ error: result.error }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds), "Cache-Control": "no-store" } });
    }
    if (!result.ok) return json({ error: result.error }, { status: 401, headers: { "Cache-Control": "no-store" } });
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
    return json({ email: result.admin.email }, { headers });
  });
}
