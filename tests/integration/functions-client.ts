import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { expect } from "vitest";
import { stripeMock } from "../../mocks/stripe";
import { action as checkSecrets } from "~/routes/functions.v1.check-secrets";
import { action as getDashboard } from "~/routes/functions.v1.get-dashboard";
import { action as getOrder } from "~/routes/functions.v1.get-order";
import { action as getOrders } from "~/routes/functions.v1.get-orders";
import { action as sendPartnershipInquiry } from "~/routes/functions.v1.send-partnership-inquiry";
import { action as sendWelcomeEmail } from "~/routes/functions.v1.send-welcome-email";
import { action as simpleCheckout } from "~/routes/functions.v1.simple-checkout";
import { action as updateOrderStatus } from "~/routes/functions.v1.update-order-status";
import { action as validateDiscountCode } from "~/routes/functions.v1.validate-discount-code";
import { action as verifyPayment } from "~/routes/functions.v1.verify-payment";

/**
 * Calls the /functions/v1 endpoints the way the browser does: a POST with a
 * JSON body, straight into each route's action.
 */

type Action = (args: ActionFunctionArgs) => Promise<Response>;

export const functions = {
  "validate-discount-code": validateDiscountCode,
  "check-secrets": checkSecrets,
  "simple-checkout": simpleCheckout,
  "verify-payment": verifyPayment,
  "send-welcome-email": sendWelcomeEmail,
  "send-partnership-inquiry": sendPartnershipInquiry,
  // The operator's functions: a signed-in admin only (pass `cookie`).
  "get-orders": getOrders,
  "get-order": getOrder,
  "update-order-status": updateOrderStatus,
  "get-dashboard": getDashboard,
} satisfies Record<string, Action>;

export type FunctionName = keyof typeof functions;

export type CallInit = {
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, string>;
  /** The caller's address; by default a new one per call, so the rate limit stays out of the way. */
  clientAddress?: string;
  /** A Cookie header, e.g. the admin session's `chillpb_admin=…`. */
  cookie?: string;
};

/** POSTs `body` (JSON-encoded unless it is already a string) to /functions/v1/<name>. */
export function callFunction(name: FunctionName, body: unknown, init: CallInit = {}) {
  const request = new Request(`http://shop.test/functions/v1/${name}`, {
    method: "POST",
    headers: {
      "Content-Type": init.contentType ?? "application/json",
      ...(init.cookie !== undefined && { Cookie: init.cookie }),
      ...init.headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const action: Action = functions[name];
  return action({ request, params: {}, context: { clientAddress: init.clientAddress ?? `test-${randomUUID()}` } });
}

/** The JSON of a response, as a small local type (no runtime check). */
export async function readJson<T>(response: Response) {
  return (await response.json()) as T;
}

export type ErrorJson = { error: string; title?: string };
export type DiscountJson = { valid: boolean; code?: string; discount: number; description: string | null; error: string | null };
export type CheckoutJson = { url: string; orderId: string };
export type VerifyJson = { verified: boolean; orderId: string | null };
export type OkJson = { ok: true; message?: string };

/** A fresh address per test, so first-order rules and counts never leak between tests. */
export function uniqueEmail(label = "customer") {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** West LA, 0.1 mi from the kitchen: the standard zone. The same street every time, so the geocoder answer is cached. */
export function shipping(overrides: Partial<Record<string, string>> = {}) {
  return {
    firstName: "Jamie",
    lastName: "Rivera",
    email: uniqueEmail(),
    phone: "310-555-0100",
    address: "11600 Wilshire Blvd",
    city: "Los Angeles",
    state: "CA",
    zipCode: "90025",
    ...overrides,
  };
}

export type CartLine = [productId: string, quantity: number];

/** The spec's simple-checkout body; the client only really controls ids and quantities. */
export function checkoutBody(lines: CartLine[], options: { email?: string; zipCode?: string; discountCode?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  return {
    items: lines.map(([id, quantity]) => ({ product: { id }, quantity })),
    shipping: shipping({ email, ...(options.zipCode && { zipCode: options.zipCode }) }),
    email,
    discountCode: options.discountCode ?? null,
  };
}

/**
 * Places an order through the real simple-checkout action and returns its id
 * and the Stripe Checkout Session the stand-in created for it.
 */
export async function placeOrder(lines: CartLine[] = [["bites-variety", 3]], options: { email?: string; discountCode?: string } = {}) {
  const response = await callFunction("simple-checkout", checkoutBody(lines, options));
  expect(response.status, "simple-checkout should place the order").toBe(200);
  const { orderId } = await readJson<CheckoutJson>(response);
  const sessionId = [...stripeMock.sessions.values()].find((session) => session.metadata.orderId === orderId)?.id;
  if (!sessionId) throw new Error(`No Checkout Session was created for order ${orderId}`);
  return { orderId, sessionId };
}
