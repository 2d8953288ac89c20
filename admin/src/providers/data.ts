import type { BaseRecord, DataProvider } from "@refinedev/core";
import { postToFunction } from "../api";
import { OWNER_LIST_PAGE_SIZE } from "@shop/owner-lists";
import { functionOf } from "../resources";
import { subscribers } from "./resources/lists";
import { operators } from "./resources/operators";
import { orders } from "./resources/orders";
import { pageParams, type ResourceHandlers } from "./resources/shared";
import { emails } from "./resources/system";

/**
 * Refine's data provider over the shop's functions (/functions/v1/*): each
 * resource's calls live in providers/resources/; the rest are custom calls,
 * made by useFunction and useFunctionMutation (functions.ts), which type
 * them (the function's name as the url, the body as the payload).
 */
const resources: Record<string, ResourceHandlers> = { orders, subscribers, operators, emails };

/**
 * A resource without handlers of its own is a list the shop searches and
 * pages itself (the partnership inquiries; any new owner's list): its list
 * function (resources.ts) takes the page and each filter by its field, and
 * answers its rows under the resource's name, with their total.
 */
function pagedList(resource: string): ResourceHandlers {
  return {
    async getList({ pagination, filters }) {
      const name = functionOf(resource, "list");
      if (!name) throw new Error(`The admin has no list of ${resource}.`);
      const filterFields = (filters ?? []).flatMap((filter) =>
        "field" in filter && typeof filter.value === "string" && filter.value !== "" ? [[filter.field, filter.value] as const] : [],
      );
      const body = { ...pageParams(pagination, OWNER_LIST_PAGE_SIZE), ...Object.fromEntries(filterFields) };
      const answer = (await postToFunction(name, body)) as Record<string, unknown>;
      const rows = answer[resource];
      if (!Array.isArray(rows) || typeof answer.total !== "number") throw new Error(`${name} answered no list of ${resource}.`);
      return { data: rows as BaseRecord[], total: answer.total };
    },
  };
}

function handlersFor<Method extends keyof ResourceHandlers>(resource: string, method: Method): NonNullable<ResourceHandlers[Method]> {
  const handler = (resources[resource] ?? pagedList(resource))[method];
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
