import { json, type ActionFunctionArgs } from "@remix-run/node";
import { saveOperator, saveOperatorSchema } from "~/models/operators.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonBody } from "~/utils/api.server";

/** Owners only: { email, role, password? } adds an operator or changes one's role or password. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("save-operator", request, async () => {
    const owner = await requireAdmin(request, "operators.manage");
    const input = await readJsonBody(request, saveOperatorSchema);
    const result = await saveOperator(owner, input);
    if (result.ok) return json({ message: result.message, operator: result.operator }, { status: result.created ? 201 : 200 });
    return apiError(result.reason === "password-required" ? 400 : 409, result.message);
  });
}

export const loader = () => apiError(405, "Use POST.");
