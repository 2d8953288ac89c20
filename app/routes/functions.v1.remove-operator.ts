import { json, type ActionFunctionArgs } from "@remix-run/node";
import { removeOperator, removeOperatorSchema } from "~/models/operators.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

/** Owners only: { email } removes an operator's account and ends their sessions. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("remove-operator", request, async () => {
    const owner = await requireAdmin(request, "operators.manage");
    const { email } = await readJsonBody(request, removeOperatorSchema);
    const result = await removeOperator(owner, email);
    if (result.ok) return json({ message: result.message });
    return apiError(result.reason === "not-found" ? 404 : 409, result.message);
  });
}
