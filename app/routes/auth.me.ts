import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { functionsFor } from "~/functions/registry.server";
import { requireAdmin } from "~/utils/auth.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

/**
 * Who is signed in, in which role, and which functions that role may call
 * (401 when no one is): the admin app's session check, and what its access
 * control shows or hides.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answeringDatabaseFailures("The session check", async () => {
    const admin = await requireAdmin(request);
    return json({ email: admin.email, role: admin.role, functions: functionsFor(admin.role) }, { headers: { "Cache-Control": "no-store" } });
  });
}
