import { listOperators, removeOperator, removeOperatorSchema, saveOperator, saveOperatorSchema } from "~/models/operators.server";
import { apiError } from "~/utils/api.server";
import { answer, defineFunction } from "./define.server";

/** The operator accounts: the owner's to add, change and remove. */
export const operatorFunctions = {
  /** Every operator account with its role and when it was last used. */
  "get-operators": defineFunction({
    access: "operators.manage",
    run: async () => ({ operators: await listOperators() }),
  }),

  /** { email, role, password? } adds an operator or changes one's role or password. */
  "save-operator": defineFunction({
    access: "operators.manage",
    body: saveOperatorSchema,
    example: { email: "sam@example.com", role: "staff", password: "tahini oat crunch 42" },
    async run({ body, admin: owner }) {
      const result = await saveOperator(owner, body);
      if (result.ok) return answer({ message: result.message, operator: result.operator }, { status: result.created ? 201 : 200 });
      if (result.reason === "password-required") {
        return apiError(400, `${result.field}: ${result.message}`, { fieldErrors: { [result.field]: result.message } });
      }
      return apiError(409, result.message);
    },
  }),

  /** { email } removes an operator's account and ends their sessions. */
  "remove-operator": defineFunction({
    access: "operators.manage",
    body: removeOperatorSchema,
    example: { email: "sam@example.com" },
    async run({ body: { email }, admin: owner }) {
      const result = await removeOperator(owner, email);
      if (result.ok) return { message: result.message };
      return apiError(result.reason === "not-found" ? 404 : 409, result.message);
    },
  }),
};
