import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { upsertAdmin } from "~/auth.server";
import { db } from "~/db.server";
import { markOrderPaid } from "~/orders.server";
import { action as loginAction } from "~/routes/auth.login";
import { action as logoutAction } from "~/routes/auth.logout";
import { loader as meLoader } from "~/routes/auth.me";
import { callFunction, checkoutBody, readJson, type CartLine, type CheckoutJson } from "./functions-client";

/**
 * Drives the operator's sign-in routes the way the admin app does, and places
 * orders with chosen customer details for the order functions.
 */

export const ADMIN_COOKIE = "chillpb_admin";
export const SHOP_ORIGIN = "http://shop.test";

/** Remix turns a thrown Response into the answer; do the same when calling a route directly. */
async function answer(run: () => Promise<Response>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

type RouteInit = { clientAddress?: string; origin?: string; cookie?: string };

function context(init: RouteInit) {
  return { clientAddress: init.clientAddress ?? `test-${randomUUID()}` };
}

function headers(init: RouteInit, extra: Record<string, string> = {}) {
  return {
    ...(init.origin !== undefined && { Origin: init.origin }),
    ...(init.cookie !== undefined && { Cookie: init.cookie }),
    ...extra,
  };
}

/** POST /auth/login with the form the admin app sends. */
export function login(email: string, password: string, init: RouteInit = {}) {
  const request = new Request(`${SHOP_ORIGIN}/auth/login`, {
    method: "POST",
    headers: headers(init, { "Content-Type": "application/x-www-form-urlencoded" }),
    body: new URLSearchParams({ email, password }),
  });
  return answer(() => loginAction({ request, params: {}, context: context(init) }));
}

/** POST /auth/logout. */
export function logout(cookie: string, init: Omit<RouteInit, "cookie"> = {}) {
  const request = new Request(`${SHOP_ORIGIN}/auth/logout`, { method: "POST", headers: headers({ ...init, cookie }) });
  return answer(() => logoutAction({ request, params: {}, context: context(init) }));
}

/** GET /auth/me. */
export function me(cookie?: string) {
  const request = new Request(`${SHOP_ORIGIN}/auth/me`, { headers: headers({ cookie }) });
  return answer(() => meLoader({ request, params: {}, context: context({}) }));
}

/** The `name=value` part of the response's Set-Cookie for the admin cookie, or null. */
export function sessionCookie(response: Response) {
  const setCookie = response.headers.get("Set-Cookie");
  if (!setCookie?.startsWith(`${ADMIN_COOKIE}=`)) return null;
  return setCookie.split(";")[0] ?? null;
}

/** A request that carries the cookie, for getAdmin(request, now). */
export function requestWith(cookie: string) {
  return new Request(`${SHOP_ORIGIN}/auth/me`, { headers: { Cookie: cookie } });
}

/** A fresh operator account, so each test has its own sessions and failure counts. */
export async function createAdmin(label = "operator") {
  const email = `${label}-${randomUUID().slice(0, 8)}@chillpb.test`;
  const password = `correct horse ${randomUUID().slice(0, 8)}`;
  const user = await upsertAdmin(email, password);
  return { id: user.id, email, password };
}

/** A new operator, signed in through /auth/login; `cookie` is ready for a Cookie header. */
export async function signedInAdmin(label = "operator") {
  const admin = await createAdmin(label);
  const response = await login(admin.email, admin.password);
  expect(response.status, "the operator should be able to sign in").toBe(200);
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error("Signing in set no session cookie");
  return { ...admin, cookie };
}

export type Customer = {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  address?: string;
};

/**
 * Places an order through simple-checkout with the given customer details
 * (always in ZIP 90025, so the delivery check passes) and, unless told
 * otherwise, marks it paid the way the webhook does.
 */
export async function orderFor(customer: Customer = {}, lines: CartLine[] = [["bites-variety", 3]], { paid = true } = {}) {
  const body = checkoutBody(lines, customer.email ? { email: customer.email } : {});
  const { email: _email, ...details } = customer;
  const response = await callFunction("simple-checkout", { ...body, shipping: { ...body.shipping, ...details } });
  expect(response.status, "simple-checkout should place the order").toBe(200);
  const { orderId } = await readJson<CheckoutJson>(response);
  const { stripeSessionId, email } = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  if (paid) {
    if (!stripeSessionId) throw new Error(`Order ${orderId} has no Checkout Session`);
    expect(await markOrderPaid(orderId, stripeSessionId)).toBe(true);
  }
  return { orderId, email };
}
