import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/utils/auth.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

/** Who is signed in and in which role (401 when no one is): the admin app's session check. */
export async function loader({ request }: LoaderFunctionArgs) {
  return answeringDatabaseFailures("The session check", async () => {
    const admin = await requireAdmin(request);
    return json({ email: admin.email, role: admin.role }, { headers: { "Cache-Control": "no-store" } });
  });
}
