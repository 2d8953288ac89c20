import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, SerializeFrom } from "@remix-run/node";
import Stripe from "stripe";
import { expect } from "vitest";
import { stripeMock, type MockSession } from "../mocks/stripe";
import { upsertAdmin } from "~/models/operators.server";
import { db } from "~/utils/db.server";
import type { OperatorRole } from "~/lib/operators";
import { loader as rootLoader } from "~/root";
import { action as loginAction } from "~/routes/auth.login";
import { action as logoutAction } from "~/routes/auth.logout";
import { loader as meLoader } from "~/routes/auth.me";
import { action as cartAction } from "~/routes/cart";
import { action as stripeWebhook } from "~/routes/webhooks.stripe";
import { action as functionRoute } from "~/routes/functions.v1.$name";
import type { FunctionName } from "~/functions/registry.server";

/**
 * The tests' one route client: it builds the Request a browser or the admin
 * app would send and hands it straight to a route module's action or loader,
 * so tests exercise the app through its routes and never its internals.
 */

export const SHOP_ORIGIN = "http://shop.test";
export const ADMIN_COOKIE = "chillpb_admin";

// ---------------------------------------------------------------------------
// Requests and route calls

export type ShopRequestInit = {
  /** Defaults to POST when there is a body, GET otherwise. */
  method?: string;
  body?: string;
  contentType?: string;
  accept?: string;
  origin?: string;
  /** A Cookie header, e.g. `chillpb_admin=…`. */
  cookie?: string;
  /** Any other headers; these win over the ones above. */
  headers?: Record<string, string>;
};

/** A request to `path` on the shop's public origin (a GET for a page or a POST with no body; see formRequest and jsonRequest for bodies). */
export function shopRequest(path: string, init: ShopRequestInit = {}) {
  const headers = new Headers();
  if (init.contentType !== undefined) headers.set("Content-Type", init.contentType);
  if (init.accept !== undefined) headers.set("Accept", init.accept);
  if (init.origin !== undefined) headers.set("Origin", init.origin);
  if (init.cookie !== undefined) headers.set("Cookie", init.cookie);
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  return new Request(new URL(path, SHOP_ORIGIN), {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body,
  });
}

/** A form post, form-encoded as a browser sends it. */
export function formRequest(path: string, fields: Record<string, string>, init: Omit<ShopRequestInit, "body"> = {}) {
  const contentType = init.contentType ?? "application/x-www-form-urlencoded";
  return shopRequest(path, { ...init, contentType, body: new URLSearchParams(fields).toString() });
}

/** A JSON post; a string body is sent as it is (to test bodies that are not JSON). */
export function jsonRequest(path: string, body: unknown, init: Omit<ShopRequestInit, "body"> = {}) {
  const contentType = init.contentType ?? "application/json";
  return shopRequest(path, { ...init, contentType, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** A route module's `action` or `loader`; both take the same arguments. A resource route answers a Response; a page answers its data, or `data(…)` with a status and headers. */
type RouteHandler<Result = unknown> = (args: ActionFunctionArgs) => Result | Promise<Result>;

export type CallInit = {
  /** The caller's address; by default a new one per call, so rate limits stay out of the way. */
  clientAddress?: string;
  /** The route's URL parameters, e.g. `{ id }` for /orders/$id. */
  params?: Record<string, string>;
};

/** `data(value, init)`'s answer, as @remix-run/node makes it: the value, and the status and headers it goes with. */
type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };

const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";

/**
 * What a route's action or loader answers, as it is: a page's data (or
 * `data(…)`) or a resource route's Response. A thrown Response is the
 * answer, as Remix itself treats it (redirects and 4xx guards are thrown); a
 * thrown `data(…)` is answered as its JSON with its status.
 */
export async function answerOf<Result>(handler: RouteHandler<Result>, request: Request, init: CallInit = {}): Promise<Result | Response> {
  try {
    return await handler({ request, params: init.params ?? {}, context: { clientAddress: init.clientAddress ?? `test-${randomUUID()}` } });
  } catch (error) {
    if (error instanceof Response) return error;
    if (isDataWithInit(error)) return Response.json(error.data, error.init ?? undefined);
    throw error;
  }
}

/**
 * Calls a route's action or loader with `request`, and answers it as a
 * Response: a page's data as JSON with its status and headers (what a test
 * reads of it; the browser gets it as single fetch encodes it).
 */
export async function callRoute(handler: RouteHandler, request: Request, init: CallInit = {}): Promise<Response> {
  const answer = await answerOf(handler, request, init);
  if (answer instanceof Response) return answer;
  if (isDataWithInit(answer)) return Response.json(answer.data, answer.init ?? undefined);
  return Response.json(answer);
}

/** The JSON of a response, as a small local type (no runtime check). */
export async function readJson<T>(response: Response) {
  return (await response.json()) as T;
}

// ---------------------------------------------------------------------------
// Cookies

/** The `name=value` part of the response's Set-Cookie for cookie `name`, or null. */
export function cookieFrom(response: Response, name: string) {
  const line = response.headers.getSetCookie().find((setCookie) => setCookie.startsWith(`${name}=`));
  return line?.split(";")[0] ?? null;
}

/** Whether a Set-Cookie line tells the browser to drop its cookie. */
function isExpired(setCookie: string) {
  const attributes = setCookie
    .split(";")
    .slice(1)
    .map((part) => part.trim().toLowerCase());
  const expires = attributes.find((attribute) => attribute.startsWith("expires="));
  return attributes.includes("max-age=0") || (expires !== undefined && Date.parse(expires.slice("expires=".length)) <= Date.now());
}

/**
 * A browser's side of a visit: it keeps every cookie the routes set (and
 * drops the ones they expire) and sends them with the next request.
 */
export function browser() {
  const cookies = new Map<string, string>();

  function remember(response: Response) {
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";")[0] ?? "";
      const name = pair.slice(0, pair.indexOf("="));
      if (isExpired(setCookie)) cookies.delete(name);
      else cookies.set(name, pair.slice(name.length + 1));
    }
    return response;
  }

  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");

  /**
   * Posts a form to a route's action. By default as a fetcher (JSON back);
   * `html: true` is a plain form post, which routes answer with a redirect.
   */
  async function post(
    handler: RouteHandler,
    path: string,
    fields: Record<string, string>,
    { html = false, headers }: { html?: boolean } & Pick<ShopRequestInit, "headers"> = {},
  ) {
    const accept = html ? "text/html,application/xhtml+xml" : "*/*";
    return remember(await callRoute(handler, formRequest(path, fields, { cookie: cookie(), accept, headers })));
  }

  /** Loads a page's data through its loader; `headers` as a browser would add them (say, Sec-Fetch-Site). */
  async function get(handler: RouteHandler, path: string, { headers, ...init }: Pick<CallInit, "params"> & Pick<ShopRequestInit, "headers"> = {}) {
    return remember(await callRoute(handler, shopRequest(path, { cookie: cookie(), headers }), init));
  }

  /** Replaces one cookie by hand, given as `name=value` (to tamper with it). */
  function setCookie(pair: string) {
    const name = pair.slice(0, pair.indexOf("="));
    cookies.set(name, pair.slice(name.length + 1));
  }

  return { post, get, setCookie };
}

export type Browser = ReturnType<typeof browser>;

// ---------------------------------------------------------------------------
// The cart

type RootJson = SerializeFrom<typeof rootLoader>;

/** The JSON a fetcher receives from /cart, loosely typed for assertions. */
type CartJson = {
  ok: boolean;
  error?: string;
  lines: { quantity: number; product: { id: string; priceCents: number } }[];
};

export const readCartJson = (response: Response) => readJson<CartJson>(response);

/** Drives the /cart action like a browser would; pass a `browser()` to share its cookies with other routes. */
export function cartClient(visitor: Browser = browser()) {
  const post = (fields: Record<string, string>, options: { html?: boolean } = {}) => visitor.post(cartAction, "/cart", fields, options);

  /** The cart as the next page load would show it (the root loader). */
  async function page() {
    return readJson<RootJson>(await visitor.get(rootLoader, "/shop"));
  }

  async function items() {
    const { cart } = await page();
    return cart.lines.map((line) => [line.product.id, line.quantity] as const);
  }

  return { post, page, items, setCookie: visitor.setCookie };
}

// ---------------------------------------------------------------------------
// The /functions/v1 endpoints

export type { FunctionName };

/** The route's action for one function, for a test that builds its own Request (no body, a multipart form). */
export function functionHandler(name: FunctionName): RouteHandler {
  return (args) => functionRoute({ ...args, params: { name } });
}

type FunctionInit = CallInit & Pick<ShopRequestInit, "contentType" | "cookie" | "headers">;

/** POSTs `body` (JSON-encoded unless it is already a string) to /functions/v1/<name>, the way the browser does. */
export function callFunction(name: FunctionName, body: unknown, init: FunctionInit = {}) {
  const { clientAddress, ...requestInit } = init;
  return callRoute(functionHandler(name), jsonRequest(`/functions/v1/${name}`, body, requestInit), { clientAddress });
}

export type ErrorJson = { error: string; title?: string };
export type DiscountJson = { valid: boolean; code?: string; discount: number; description: string | null; error: string | null };
export type CheckoutJson = { url: string; orderId: string };
export type VerifyJson = { verified: boolean; orderId: string | null };
export type OkJson = { ok: true; message?: string };

// ---------------------------------------------------------------------------
// Customers and orders

/** A fresh address per test, so first-order rules and counts never leak between tests. */
export function uniqueEmail(label = "customer") {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

type Shipping = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
};

/** West LA, 0.1 mi from the kitchen: the standard zone. The same street every time, so the geocoder answer is cached. */
export function shipping(overrides: Partial<Shipping> = {}): Shipping {
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

type OrderOptions = { email?: string; zipCode?: string; discountCode?: string; shipping?: Partial<Shipping> };

/** The spec's simple-checkout body; the client only really controls ids and quantities. */
export function checkoutBody(lines: CartLine[], options: OrderOptions = {}) {
  const email = options.email ?? uniqueEmail();
  return {
    items: lines.map(([id, quantity]) => ({ product: { id }, quantity })),
    shipping: shipping({ ...options.shipping, email, ...(options.zipCode && { zipCode: options.zipCode }) }),
    email,
    discountCode: options.discountCode ?? null,
  };
}

/**
 * Places an order through the real simple-checkout action and returns its id,
 * the customer's email and the Stripe Checkout Session the stand-in created for it.
 */
export async function placeOrder(lines: CartLine[] = [["bites-variety", 3]], options: OrderOptions = {}) {
  const body = checkoutBody(lines, options);
  const response = await callFunction("simple-checkout", body);
  expect(response.status, "simple-checkout should place the order").toBe(200);
  const { orderId } = await readJson<CheckoutJson>(response);
  const sessionId = (await stripeMock.allSessions()).find((session) => session.metadata.orderId === orderId)?.id;
  if (!sessionId) throw new Error(`No Checkout Session was created for order ${orderId}`);
  return { orderId, sessionId, email: body.email };
}

/** Pays a Checkout Session on the Stripe stand-in and has the shop verify it, as /order-success does. */
export async function payOrder(sessionId: string) {
  if (!(await stripeMock.pay(sessionId))) throw new Error(`The Stripe stand-in has no session ${sessionId}`);
  const response = await callFunction("verify-payment", { sessionId });
  expect(await readJson<VerifyJson>(response), "verify-payment should mark the order paid").toMatchObject({ verified: true });
}

/**
 * An order with the given customer details (always in ZIP 90025, so the
 * delivery check passes), paid unless told otherwise: for the operator's functions.
 */
export async function orderFor(customer: Partial<Shipping> = {}, lines: CartLine[] = [["bites-variety", 3]], { paid = true } = {}) {
  const { email, ...details } = customer;
  const placed = await placeOrder(lines, { email, shipping: details });
  if (paid) await payOrder(placed.sessionId);
  return { orderId: placed.orderId, email: placed.email };
}

// ---------------------------------------------------------------------------
// Stripe's webhook

/** A Stripe event as the JSON Stripe sends: `object` is its data.object; a new event id unless one is given. */
export function stripeEvent(type: string, object: object, eventId = `evt_test_${randomUUID().replace(/-/g, "")}`) {
  return JSON.stringify({
    id: eventId,
    object: "event",
    api_version: "2025-08-27.basil",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object },
  });
}

/** A Stripe event about one Checkout Session, as the JSON Stripe sends. */
export function stripeSessionEvent(type: string, session: Pick<MockSession, "id" | "object" | "metadata"> & Partial<MockSession>) {
  return stripeEvent(type, session);
}

/** charge.refunded for the PaymentIntent's charge, refunded in full unless `refunded` is false (then half). */
export function chargeRefunded(
  paymentIntentId: string,
  {
    amount,
    refunded = true,
    amountRefunded = refunded ? amount : Math.floor(amount / 2),
    refundId,
    refunds,
    eventId,
  }: {
    amount: number;
    refunded?: boolean;
    /** What Stripe says is refunded in all: the whole amount, or half of it for a partial refund, unless given. */
    amountRefunded?: number;
    /** The one refund the charge lists (with all that is refunded as its amount). */
    refundId?: string;
    /** The refunds the charge lists, newest first, as Stripe lists them. */
    refunds?: { id: string; amount: number }[];
    eventId?: string;
  },
) {
  const listed = refunds ?? (refundId ? [{ id: refundId, amount: amountRefunded }] : null);
  const charge = {
    id: `ch_${paymentIntentId.slice(3)}`,
    object: "charge",
    amount,
    amount_refunded: amountRefunded,
    refunded,
    payment_intent: paymentIntentId,
    metadata: {},
    ...(listed && { refunds: { object: "list", data: listed.map((refund) => ({ ...refund, object: "refund" })) } }),
  };
  return stripeEvent("charge.refunded", charge, eventId);
}

/** The Stripe-Signature header for `payload`: signed with the shop's webhook secret (tests/setup/environment.ts) unless another is given. */
export function signStripePayload(payload: string, secret = process.env.STRIPE_WEBHOOK_SECRET ?? "") {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

/** POSTs `payload` to /webhooks/stripe as Stripe does: signed, unless `signature` says otherwise (null sends none). */
export function deliverStripeEvent(payload: string, { signature, headers = {} }: { signature?: string | null; headers?: Record<string, string> } = {}) {
  const header = signature === undefined ? signStripePayload(payload) : signature;
  const request = jsonRequest("/webhooks/stripe", payload, { headers: { ...(header !== null && { "Stripe-Signature": header }), ...headers } });
  return callRoute(stripeWebhook, request);
}

// ---------------------------------------------------------------------------
// The operator (admin) sign-in

/** POST /auth/login with the form the admin app sends. */
export function login(email: string, password: string, init: CallInit & Pick<ShopRequestInit, "origin" | "cookie"> = {}) {
  const { clientAddress, ...requestInit } = init;
  return callRoute(loginAction, formRequest("/auth/login", { email, password }, requestInit), { clientAddress });
}

/** POST /auth/logout. */
export function logout(cookie: string, init: CallInit & Pick<ShopRequestInit, "origin"> = {}) {
  const { clientAddress, ...requestInit } = init;
  return callRoute(logoutAction, shopRequest("/auth/logout", { method: "POST", ...requestInit, cookie }), { clientAddress });
}

/** GET /auth/me. */
export function me(cookie?: string) {
  return callRoute(meLoader, shopRequest("/auth/me", { cookie }));
}

/** A request that carries the cookie, for getAdmin(request, now). */
export function requestWith(cookie: string) {
  return shopRequest("/auth/me", { cookie });
}

/** A fresh operator account, so each test has its own sessions and failure counts. */
export async function createAdmin(label = "operator", role: OperatorRole = "owner") {
  const email = `${label}-${randomUUID().slice(0, 8)}@chillpb.test`;
  const password = `correct horse ${randomUUID().slice(0, 8)}`;
  const user = await upsertAdmin(email, password, role);
  return { id: user.id, email, password, role };
}

/** A new operator, signed in through /auth/login; `cookie` is ready for a Cookie header. */
export async function signedInAdmin(label = "operator", role: OperatorRole = "owner") {
  const admin = await createAdmin(label, role);
  const response = await login(admin.email, admin.password);
  expect(response.status, "the operator should be able to sign in").toBe(200);
  const cookie = cookieFrom(response, ADMIN_COOKIE);
  if (!cookie) throw new Error("Signing in set no session cookie");
  return { ...admin, cookie };
}

/**
 * Every day's paid orders and revenue, as the dashboard keeps them
 * (DailySales), agree with the orders themselves: each paid order counts on
 * its day, with what it kept (its total less its refunds).
 */
export async function expectDailySalesToAgree() {
  const counted = await db.$queryRaw<{ day: string; orders: number; revenue: number }[]>`
    SELECT shop_day("createdAt") AS day, count(*)::int AS orders, sum("totalCents" - coalesce("refundedCents", 0))::int AS revenue
      FROM "Order" WHERE "paymentStatus" = 'paid' GROUP BY 1 ORDER BY 1`;
  const kept = await db.dailySales.findMany({ where: { orders: { gt: 0 } }, orderBy: { day: "asc" } });
  expect(kept.map(({ day, orders, revenueCents }) => ({ day, orders, revenue: revenueCents }))).toEqual(counted);
}
