/**
 * The order vocabulary, browser-safe: the server, the storefront and the
 * admin (through its `@shop/*` alias) all import it. The database holds the
 * same two lists as Prisma enums; `orders.test.ts` keeps them identical.
 */
import type { Shipping } from "./checkout-form";

/** Fulfilment, in the order an operator moves an order along (requirements §4). */
export const FULFILMENT_STATUSES = ["pending", "preparing", "shipped", "delivered"] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/** Every status an order can have: the fulfilment steps, and `cancelled` (the owner's cancel-order, before it shipped; decision 064). */
export const ORDER_STATUSES = [...FULFILMENT_STATUSES, "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order the owner may still cancel: not yet shipped. */
export const CANCELLABLE_STATUSES = ["pending", "preparing"] as const satisfies readonly OrderStatus[];

/**
 * Payment: `expired` when the payment page timed out, `cancelled` when the
 * customer cancelled or started again, `refunded` when a paid order's money
 * went back in full.
 */
export const PAYMENT_STATUSES = ["unpaid", "paid", "expired", "cancelled", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Payments that took the customer's money: paid, and paid then refunded. Such an order was a real order. */
export const TAKEN_PAYMENT_STATUSES = ["paid", "refunded"] as const satisfies readonly PaymentStatus[];

/** A checkout given up before it was paid: its payment page expired, or the customer cancelled it or started again. */
export const GIVEN_UP_PAYMENT_STATUSES = ["expired", "cancelled"] as const satisfies readonly PaymentStatus[];

/**
 * The Orders list's payment filter. `all` is every order that took the
 * customer's money, whatever went back since; `paid`, `part-refunded` and
 * `refunded` divide it between them; `given-up` is the checkouts never paid
 * (the owner's: get-given-up-checkouts).
 */
export const ORDER_PAYMENT_FILTERS = ["all", "paid", "part-refunded", "refunded"] as const;
export type OrderPaymentFilter = (typeof ORDER_PAYMENT_FILTERS)[number];
export const PAYMENT_FILTER_LABELS: Record<OrderPaymentFilter | "given-up", string> = {
  all: "All orders",
  paid: "Paid",
  "part-refunded": "Part refunded",
  refunded: "Refunded",
  "given-up": "Given up (unpaid)",
};

export function isTakenPayment(status: PaymentStatus) {
  return (TAKEN_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);
}

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  unpaid: "Unpaid",
  paid: "Paid",
  expired: "Expired",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  preparing: "Preparing",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

/**
 * What the customer is told at each status: the headline and lead of their
 * order page, and the heading and text of the status email (none for pending).
 */
export const ORDER_STATUS_COPY: Record<OrderStatus, { title: string; lead: string }> = {
  pending: { title: "We've got your order", lead: "Thanks! Our kitchen will start on your treats shortly; they ship within 24 hours." },
  preparing: { title: "We're making your treats", lead: "Our kitchen is preparing your order. It will be packed frozen and on its way within 24 hours." },
  shipped: {
    title: "Your treats are on their way",
    lead: "Packed frozen in insulated packaging. Make some room in the freezer: delivery takes 2-3 business days.",
  },
  delivered: { title: "Delivered: enjoy!", lead: "Your treats have arrived. Keep them frozen and enjoy them straight from the freezer." },
  cancelled: {
    title: "Your order was cancelled",
    lead: "We cancelled this order before it shipped. If you paid, the full amount is on its way back to your card.",
  },
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).includes(value);
}

/** Orders per page of the operator's list, unless the admin asks for another size. */
export const ORDERS_PAGE_SIZE = 20;

/**
 * How deep a list of orders goes by page number, and how far its count is
 * counted (decision 067): past this many, the count says "10,000+" and the
 * operator reaches older orders by a date (get-orders' `from`), which the
 * order indexes seek to directly, however many orders the shop has.
 */
export const ORDER_LIST_DEPTH = 10_000;

/** What a customer and an operator call an order: the first eight characters of its id. */
export const shortOrderId = (id: string) => id.slice(0, 8);

/**
 * How long the link in a customer's emails opens their order page (decision
 * 048): 180 days from the order, longer than delivery, a card's dispute
 * window (120 days) and a returns conversation take, so a link forwarded or
 * found in an old inbox stops showing the order some months after it is done.
 */
export const ORDER_LINK_DAYS = 180;

/** When the order's page link stops working. */
export function orderLinkExpiresAt(placedAt: Date | string): Date {
  return new Date(new Date(placedAt).getTime() + ORDER_LINK_DAYS * 24 * 60 * 60 * 1000);
}

/** An order as an operator sees it (requirements §3): customer data masked on the server; money in dollars and cents. */
export type MaskedOrder = {
  id: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  created_at: string;
  total: number;
  total_cents: number;
  /** `line_total_cents`: the line's price times its quantity, as charged. */
  items: { product: { id: string; name: string; price: number }; quantity: number; line_total_cents: number }[];
  customer_email: string;
  shipping_info: { firstName: string; lastName: string; city: string; state: string };
  chef_notified: boolean;
  preparing_sent: boolean;
  shipped_sent: boolean;
  delivered_sent: boolean;
  /** Given when the order was marked shipped; null otherwise. */
  tracking: { carrier: string | null; number: string | null; url: string | null } | null;
  /** The full refund, once there is one. */
  refund: { amount_cents: number; reason: string | null; refunded_by: string | null; refunded_at: string } | null;
  /** What its refunds gave back in all (part or whole, decision 066); 0 when none. */
  refunded_cents: number;
  /** A refund asked of Stripe that Stripe has not confirmed yet (its answer never came); the shop keeps asking (decision 042). */
  refund_pending: { requested_by: string | null; requested_at: string; reason: string | null } | null;
  /** The delivery day its customer chose ("YYYY-MM-DD"), its window's id and words; null for an order placed before delivery days (decision 100). */
  delivery_date: string | null;
  delivery_slot: string | null;
  delivery_slot_label: string | null;
};

/** What the admin calls an order whose refund Stripe has not confirmed yet. */
export const REFUND_PENDING_LABEL = "Refund pending";

/**
 * get-dashboard's answer: paid orders and their revenue today and per Los
 * Angeles day, in dollars (as the spec's client reads money) and in cents
 * (what the dashboard shows and adds up: the browser does no money sums).
 */
export type DashboardStats = {
  today: { orders: number; revenue: number; revenueCents: number };
  /** Paid orders still pending or preparing. */
  openOrders: number;
  /** The last 30 days, oldest first, today last; `date` is YYYY-MM-DD. */
  last30Days: { date: string; orders: number; revenue: number; revenueCents: number }[];
  /** The revenue of those 30 days together. */
  last30DaysRevenueCents: number;
};

/** A status change in an order's history. */
export type OrderStatusChangeView = { from: OrderStatus; to: OrderStatus; changed_by: string; changed_at: string };

/** An order's carrier and tracking number as they were before or after a change (nulls: none). */
export type TrackingView = { carrier: string | null; number: string | null };

/** Tracking set (when the order shipped) or corrected, and who did it. */
export type TrackingChangeView = { from: TrackingView; to: TrackingView; changed_by: string; changed_at: string };

/** A pending refund that Stripe refused: who had asked for it and why, Stripe's reason, and when the shop learned it. */
export type RefundRefusalView = { requested_by: string | null; reason: string | null; refusal: string; refused_at: string };

/** A payment Stripe reported for another amount than the order's total: the order was not marked paid (decision 080). */
export type PaymentMismatchView = { paid_cents: number; total_cents: number; session_id: string; noticed_at: string };

/** Who was shown the order's full customer details, and when. */
export type CustomerDetailsShownView = { shown_by: string; shown_at: string };

/** One refund of an order: how much, why, by whom, when, and the lines it was for (with whether their stock went back). */
export type RefundView = {
  amount_cents: number;
  reason: string | null;
  refunded_by: string;
  refunded_at: string;
  lines: { name: string; quantity: number }[];
  restocked: boolean;
};

/** An order line as a refund of chosen lines sees it: how many of it are left to refund. */
export type RefundableLineView = { item_id: number; name: string; quantity: number; refundable_quantity: number };

export type MaskedOrderWithHistory = MaskedOrder & {
  /** Every refund, oldest first. */
  refunds: RefundView[];
  /** What is left to refund, in cents: the order's total less its refunds. */
  refund_left_cents: number;
  refundable_lines: RefundableLineView[];
  history: OrderStatusChangeView[];
  tracking_history: TrackingChangeView[];
  /** Each move of its delivery day (decision 100): by "customer" or an operator, oldest first. */
  delivery_history: { from: string | null; to: string | null; changed_by: string; changed_at: string }[];
  refund_refusals: RefundRefusalView[];
  details_shown: CustomerDetailsShownView[];
  payment_mismatches: PaymentMismatchView[];
};

/** get-customer-details' answer: who to deliver to, as the customer typed it (phone null when none was given). */
export type CustomerDetails = StoredShipping & {
  /** What else the customer wrote on the form (customerNotes, checkout-form.ts). */
  notes: CustomerNote[];
};

/** The shipping form's fields (checkout-form.ts) as an order stores them: an optional one left empty is null. */
export type StoredShipping = { [Field in keyof Shipping]-?: undefined extends Shipping[Field] ? Exclude<Shipping[Field], undefined> | null : Shipping[Field] };

/** A line the customer wrote on their order beyond who it goes to: its field's label, and the text. */
export type CustomerNote = { label: string; text: string };

/** The Prepare page's limit: a day's work is far less; past it the page says how many it leaves out. */
export const PREPARATION_LIMIT = 500;

/** An order to prepare and deliver, as get-preparation lists it (masked unless the owner asked for customer details). */
export type PreparationOrder = {
  id: string;
  short_id: string;
  status: "pending" | "preparing";
  created_at: string;
  zone: string;
  distance_miles: number;
  items: { product_id: string; name: string; quantity: number }[];
  /** Initials, city and state, as every list shows a customer. */
  customer: { initials: string; city: string; state: string };
  /** Who to deliver to, in full: with `customerDetails: true` only (the owner's, recorded in each order's history). */
  delivery: CustomerDetails | null;
  /** A refund asked of Stripe and not settled yet: do not send it out before it is. */
  refund_pending: boolean;
  /** Its delivery day and window (decision 100); null for an order placed before delivery days. */
  delivery_date: string | null;
  delivery_slot: string | null;
  delivery_slot_label: string | null;
};

/** get-preparation's answer: the paid orders not yet shipped, by zone (nearest zone first), nearest the kitchen first in each. */
export type Preparation = {
  generated_at: string;
  /** The delivery day listed ("YYYY-MM-DD"), or null for every day's. */
  delivery_date: string | null;
  /** The kitchen's next delivery day after today (Los Angeles): what the Prepare page opens on. */
  next_delivery_date: string | null;
  zones: { name: string; up_to_miles: number | null; orders: PreparationOrder[] }[];
  /** How many of each product to make for the orders listed, most first. */
  to_make: { product_id: string; name: string; quantity: number }[];
  /** Every paid order not yet shipped, and how many of them are listed (PREPARATION_LIMIT). */
  order_count: number;
  listed_count: number;
};

/** A refund's reason, as refund-order takes it: one the owner will recognise later, not an essay. */
export const REFUND_REASON = { min: 3, max: 500 } as const;
