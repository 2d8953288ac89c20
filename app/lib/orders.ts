/**
 * The order vocabulary, browser-safe: the server, the storefront and the
 * admin (through its `@shop/*` alias) all import it. The database holds the
 * same two lists as Prisma enums; `orders.test.ts` keeps them identical.
 */

/** Fulfilment, in the order an operator moves an order along (spec §4). */
export const ORDER_STATUSES = ["pending", "preparing", "shipped", "delivered"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Payment: `expired` when the payment page timed out, `cancelled` when the customer cancelled or started again. */
export const PAYMENT_STATUSES = ["unpaid", "paid", "expired", "cancelled"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  preparing: "Preparing",
  shipped: "Shipped",
  delivered: "Delivered",
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).includes(value);
}

/** What a customer and an operator call an order: the first eight characters of its id. */
export const shortOrderId = (id: string) => id.slice(0, 8);

/** An order as an operator sees it (spec §3): customer data masked on the server; money in dollars and cents. */
export type MaskedOrder = {
  id: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  created_at: string;
  total: number;
  total_cents: number;
  items: { product: { id: string; name: string; price: number }; quantity: number }[];
  customer_email: string;
  shipping_info: { firstName: string; lastName: string; city: string; state: string };
  chef_notified: boolean;
  preparing_sent: boolean;
  shipped_sent: boolean;
  delivered_sent: boolean;
};

/** A status change in an order's history. */
export type OrderStatusChangeView = { from: OrderStatus; to: OrderStatus; changed_by: string; changed_at: string };

export type MaskedOrderWithHistory = MaskedOrder & { history: OrderStatusChangeView[] };
