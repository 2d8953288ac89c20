import { json, type ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/utils/auth.server";
import { assertSameOrigin } from "~/utils/same-origin.server";
import { env } from "~/utils/env.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

/** Ends the admin session on the server and clears its cookie. */
export async function action({ request }: ActionFunctionArgs) {
  return answeringDatabaseFailures("Sign-out", async () => {
    assertSameOrigin(request, env.PUBLIC_URL);
    return json({ ok: true }, { headers: { "Set-Cookie": await signOut(request), "Cache-Control": "no-store" } });
  });
}
