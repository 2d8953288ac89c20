import type { OperatorRow } from "@shop/operator-accounts";
import type { OperatorRole } from "@shop/operators";
import { callFunction } from "../../api";
import type { ResourceHandlers } from "./shared";

/** Operator accounts, keyed by email: get-operators, save-operator (add or change), remove-operator. */

type SaveVariables = { email?: string; role: OperatorRole; password?: string };

async function save(variables: SaveVariables) {
  const { operator, message } = await callFunction<{ operator: OperatorRow; message: string }>("save-operator", variables);
  return { data: { ...operator, message } };
}

export const operators: ResourceHandlers = {
  async getList() {
    const { operators } = await callFunction<{ operators: OperatorRow[] }>("get-operators");
    return { data: operators, total: operators.length };
  },
  create: ({ variables }) => save(variables as SaveVariables),
  update: ({ id, variables }) => save({ ...(variables as SaveVariables), email: String(id) }),
  async deleteOne({ id }) {
    const { message } = await callFunction<{ message: string }>("remove-operator", { email: String(id) });
    return { data: { id, message } };
  },
};
