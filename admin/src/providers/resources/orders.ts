import type { CrudFilter } from "@refinedev/core";
import { ORDER_PAYMENT_FILTERS, ORDER_STATUSES, ORDERS_PAGE_SIZE, type FulfilmentStatus } from "@shop/orders";
import type { FunctionBody } from "~/functions/registry.server";
import { callFunction } from "../../api";
import { filterChoice, filterValue, pageParams, type ResourceHandlers } from "./shared";

/** Orders: get-orders (a masked, paged list), get-order (one, with history), update-order-status. */

const sortNames: Record<string, NonNullable<FunctionBody<"get-orders">["sort"]>> = {
  "created_at:desc": "date_desc",
  "created_at:asc": "date_asc",
  "total:desc": "total_desc",
  "total:asc": "total_asc",
};

export const orders: ResourceHandlers = {
  async getList({ pagination, filters, sorters }) {
    const sorter = sorters?.[0];
    const from = filterValue(filters, "from");
    const query = {
      ...pageParams(pagination, ORDERS_PAGE_SIZE),
      status: filterChoice(filters as CrudFilter[] | undefined, "status", ORDER_STATUSES) ?? null,
      q: filterValue(filters, "q"),
      // The operator's "placed at or before" is a local date and time: sent as the moment it names.
      ...(from && !Number.isNaN(new Date(from).getTime()) && { from: new Date(from).toISOString() }),
      sort: sorter ? (sortNames[`${sorter.field}:${sorter.order}`] ?? "date_desc") : "date_desc",
    };
    // Checkouts given up unpaid are the owner's own list (get-given-up-checkouts); every other choice narrows get-orders.
    const { orders, total, totalCapped } =
      filterValue(filters, "payment") === "given-up"
        ? await callFunction("get-given-up-checkouts", query)
        : await callFunction("get-orders", { ...query, payment: filterChoice(filters, "payment", ORDER_PAYMENT_FILTERS) ?? "all" });
    return { data: orders, total, totalCapped };
  },

  async getOne({ id }) {
    const { order } = await callFunction("get-order", { orderId: String(id) });
    return { data: order };
  },

  async update({ id, variables }) {
    const { status, carrier, trackingNumber } = variables as { status: FulfilmentStatus; carrier?: string | null; trackingNumber?: string | null };
    const { message } = await callFunction("update-order-status", {
      orderId: String(id),
      newStatus: status,
      ...(carrier && { carrier }),
      ...(trackingNumber && { trackingNumber }),
    });
    return { data: { id, status, message } };
  },
};
