import type { BaseRecord, CrudFilter, DataProvider } from "@refinedev/core";
import type { MaskedOrder, MaskedOrderWithHistory, OrderStatus } from "@shop/orders";
import { callFunction } from "../api";

/**
 * Refine's data provider over the shop's order functions: get-orders (a
 * masked, paged list), get-order (one, with history), update-order-status
 * (with a carrier and tracking number when shipped), and get-dashboard and
 * refund-order as custom calls (the function's name as the url, the body as values).
 */

function filterValue(filters: CrudFilter[] | undefined, field: string) {
  const found = filters?.find((filter) => "field" in filter && filter.field === field);
  const value = found && "value" in found ? found.value : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

const sortNames: Record<string, string> = {
  "created_at:desc": "date_desc",
  "created_at:asc": "date_asc",
  "total:desc": "total_desc",
  "total:asc": "total_asc",
};

const unsupported = () => Promise.reject(new Error("Orders are created by checkout, not here."));

export const dataProvider: DataProvider = {
  getApiUrl: () => "/functions/v1",

  async getList<TData extends BaseRecord>({ pagination, filters, sorters }: Parameters<DataProvider["getList"]>[0]) {
    const sorter = sorters?.[0];
    const { orders, total } = await callFunction<{ orders: MaskedOrder[]; total: number }>("get-orders", {
      page: pagination?.currentPage ?? 1,
      pageSize: pagination?.pageSize ?? 20,
      status: filterValue(filters, "status") ?? null,
      q: filterValue(filters, "q"),
      sort: sorter ? (sortNames[`${sorter.field}:${sorter.order}`] ?? "date_desc") : "date_desc",
    });
    return { data: orders as unknown as TData[], total };
  },

  async getOne<TData extends BaseRecord>({ id }: Parameters<DataProvider["getOne"]>[0]) {
    const { order } = await callFunction<{ order: MaskedOrderWithHistory }>("get-order", { orderId: String(id) });
    return { data: order as unknown as TData };
  },

  async update<TData extends BaseRecord>({ id, variables }: Parameters<DataProvider["update"]>[0]) {
    const { status, carrier, trackingNumber } = variables as { status: OrderStatus; carrier?: string | null; trackingNumber?: string | null };
    const { message } = await callFunction<{ message: string }>("update-order-status", {
      orderId: String(id),
      newStatus: status,
      ...(carrier && { carrier }),
      ...(trackingNumber && { trackingNumber }),
    });
    return { data: { id, status, message } as unknown as TData };
  },

  async custom<TData extends BaseRecord>({ url, payload }: Parameters<NonNullable<DataProvider["custom"]>>[0]) {
    return { data: await callFunction<TData>(url, payload ?? {}) };
  },

  create: unsupported,
  deleteOne: unsupported,
};
