import type { FunctionBody } from "~/functions/registry.server";
import { callFunction } from "../../api";
import type { ResourceHandlers } from "./shared";

/** Operator accounts, keyed by email: get-operators, save-operator (add or change), remove-operator. */

type SaveVariables = FunctionBody<"save-operator">;

async function save(variables: SaveVariables) {
  const { operator, message } = await callFunction("save-operator", variables);
  return { data: { ...operator, message } };
}

export const operators: ResourceHandlers = {
  async getList() {
    const { operators } = await callFunction("get-operators");
    return { data: operators, total: operators.length };
  },
  create: ({ variables }) => save(variables as SaveVariables),
  update: ({ id, variables }) => save({ ...(variables as Omit<SaveVariables, "email">), email: String(id) }),
  async deleteOne({ id }) {
    const { message } = await callFunction("remove-operator", { email: String(id) });
    return { data: { id, message } };
  },
};
