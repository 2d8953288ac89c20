import { json, type ActionFunctionArgs } from "@remix-run/node";
import { signIn } from "~/auth.server";
import { readFormData } from "~/lib/forms.server";

/**
 * The admin app's sign-in: email and password as a form; answers JSON and sets
 * the session cookie, or 429 with Retry-After while failed sign-ins must wait.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const result = await signIn(await readFormData(request), context.clientAddress);
  if (!result.ok) {
    const headers: Record<string, string> = { "Cache-Control": "no-store" };
    if (result.retryAfterSeconds !== undefined) headers["Retry-After"] = String(result.retryAfterSeconds);
    return json({ error: result.error }, { status: result.status, headers });
  }
  return json({ email: result.admin.email }, { headers: { "Set-Cookie": result.setCookie, "Cache-Control": "no-store" } });
}

export const loader = () => json({ error: "Use POST." }, { status: 405 });
