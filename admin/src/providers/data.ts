import type { BaseRecord, DataProvider } from "@refinedev/core";
import { postToFunction } from "../api";
import { inquiries, subscribers } from "./resources/lists";
import { operators } from "./resources/operators";
import { orders } from "./resources/orders";
import type { ResourceHandlers } from "./resources/shared";
import { emails } from "./resources/system";

/**
 * Refine's data provider over the shop's functions (/functions/v1/*): each
 * resource's calls live in providers/resources/; the rest are custom calls,
 * made by useFunction and useFunctionMutation (functions.ts), which type
 * them (the function's name as the url, the body as the payload).
 */
const resources: Record<string, ResourceHandlers> = { orders, subscribers, inquiries, operators, emails };

function handlersFor<Method extends keyof ResourceHandlers>(resource: string, method: Method): NonNullable<ResourceHandlers[Method]> {
  const handler = resources[resource]?.[method];
  if (!handler) throw new Error(`The admin cannot ${method} ${resource}.`);
  return handler;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => "/functions/v1",

  async getList<TData extends BaseRecord>(params: Parameters<DataProvider["getList"]>[0]) {
    const { data, total } = await handlersFor(params.resource, "getList")(params);
    return { data: data as TData[], total };
  },

  async getOne<TData extends BaseRecord>(params: Parameters<DataProvider["getOne"]>[0]) {
    const { data } = await handlersFor(params.resource, "getOne")(params);
    return { data: data as TData };
  },

  async update<TData extends BaseRecord>(params: Parameters<DataProvider["update"]>[0]) {
    const { data } = await handlersFor(params.resource, "update")(params);
    return { data: data as TData };
  },

  async create<TData extends BaseRecord>(params: Parameters<DataProvider["create"]>[0]) {
    const { data } = await handlersFor(params.resource, "create")(params);
    return { data: data as TData };
  },

  async custom<TData extends BaseRecord>({ url, payload }: Parameters<NonNullable<DataProvider["custom"]>>[0]) {
    // Typed by useFunction / useFunctionMutation, which alone make custom calls.
    return { data: (await postToFunction(url, payload)) as TData };
  },

  async deleteOne<TData extends BaseRecord>(params: Parameters<DataProvider["deleteOne"]>[0]) {
    const { data } = await handlersFor(params.resource, "deleteOne")(params);
    return { data: data as TData };
  },
};
