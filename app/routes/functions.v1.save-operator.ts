import { json, type ActionFunctionArgs } from "@remix-run/node";
import { saveOperator, saveOperatorSchema } from "~/models/operators.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction, readJsonForm } from "~/utils/api.server";

/** Owners only: { email, role, password? } adds an operator or changes one's role or password. */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("save-operator", request, async () => {
    const owner = await requireAdmin(request, "operators.manage");
    const input = await readJsonForm(request, saveOperatorSchema);
    const result = await saveOperator(owner, input);
    if (result.ok) return json({ message: result.message, operator: result.operator }, { status: result.created ? 201 : 200 });
    if (result.reason === "password-required") {
      return apiError(400, `${result.field}: ${result.message}`, { fieldErrors: { [result.field]: result.message } });
    }
    return apiError(409, result.message);
  });
}
