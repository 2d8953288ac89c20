import type { CrudFilter } from "@refinedev/core";
import { ORDERS_PAGE_SIZE, type MaskedOrder, type MaskedOrderWithHistory, type OrderStatus } from "@shop/orders";
import { callFunction } from "../../api";
import { filterValue, pageParams, type ResourceHandlers } from "./shared";

/** Orders: get-orders (a masked, paged list), get-order (one, with history), update-order-status. */

const sortNames: Record<string, string> = {
  "created_at:desc": "date_desc",
  "created_at:asc": "date_asc",
  "total:desc": "total_desc",
  "total:asc": "total_asc",
};

export const orders: ResourceHandlers = {
  async getList({ pagination, filters, sorters }) {
    const sorter = sorters?.[0];
    const from = filterValue(filters, "from");
    const { orders, total, totalCapped } = await callFunction<{ orders: MaskedOrder[]; total: number; totalCapped: boolean }>("get-orders", {
      ...pageParams(pagination, ORDERS_PAGE_SIZE),
      status: filterValue(filters as CrudFilter[] | undefined, "status") ?? null,
      payment: filterValue(filters, "payment") ?? "paid",
      q: filterValue(filters, "q"),
      // The operator's "placed at or before" is a local date and time: sent as the moment it names.
      ...(from && !Number.isNaN(new Date(from).getTime()) && { from: new Date(from).toISOString() }),
      sort: sorter ? (sortNames[`${sorter.field}:${sorter.order}`] ?? "date_desc") : "date_desc",
    });
    return { data: orders, total, totalCapped };
  },

  async getOne({ id }) {
    const { order } = await callFunction<{ order: MaskedOrderWithHistory }>("get-order", { orderId: String(id) });
    return { data: order };
  },

  async update({ id, variables }) {
    const { status, carrier, trackingNumber } = variables as { status: OrderStatus; carrier?: string | null; trackingNumber?: string | null };
    const { message } = await callFunction<{ message: string }>("update-order-status", {
      orderId: String(id),
      newStatus: status,
      ...(carrier && { carrier }),
      ...(trackingNumber && { trackingNumber }),
    });
    return { data: { id, status, message } };
  },
};
