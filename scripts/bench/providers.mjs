// Stand-ins for the outside services the order path calls, on 127.0.0.1 in
// the bench's process: Stripe's API (coupons and Checkout Sessions, priced
// from what the shop sends, as Stripe prices them), a Nominatim-compatible
// geocoder and an SMTP server that accepts every message. Nothing leaves the
// machine, and the shop runs in production mode against them (STRIPE_API_URL,
// GEOCODER_URL, SMTP_URL), as it runs against the real ones.
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { createHmac, randomBytes } from "node:crypto";

/**
 * @typedef {{ coupons: number, sessions: number, other: number, geocodes: number, emails: number }} Counts what each stand-in was asked
 * @typedef {import("node:http").IncomingMessage} IncomingMessage
 * @typedef {import("node:http").ServerResponse} ServerResponse
 */

/**
 * Listens on a free port of 127.0.0.1; resolves with the port.
 * @param {import("node:net").Server} server
 * @returns {Promise<number>}
 */
const listen = (server) =>
  new Promise((resolve, reject) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("the stand-in does not listen on a TCP port"));
      else resolve(address.port);
    }),
  );

/** Reads a request's body as text. @param {IncomingMessage} request */
async function bodyOf(request) {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/**
 * Stripe's API as the shop uses it on the order path: a coupon's amount is
 * remembered, a Checkout Session totals its lines, its shipping rate and its
 * coupon, as Stripe's does, so the shop's check of the session's total is real.
 *
 * @param {Counts} counts @param {Map<string, number>} totals
 * @returns {(request: IncomingMessage, response: ServerResponse) => Promise<void>}
 */
function stripeHandler(counts, totals) {
  /** Each coupon's amount off, in cents. @type {Map<string, number>} */
  const coupons = new Map();
  /** @type {Map<string, Record<string, unknown>>} */
  const sessions = new Map();
  return async (request, response) => {
    const form = new URLSearchParams(await bodyOf(request));
    /** @param {number} status @param {unknown} value */
    const send = (status, value) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    /** @param {string} prefix */
    const id = (prefix) => `${prefix}_${randomBytes(12).toString("hex")}`;
    if (request.method === "POST" && request.url === "/v1/coupons") {
      const coupon = { id: id("bench_coupon"), object: "coupon", amount_off: Number(form.get("amount_off")), currency: "usd" };
      coupons.set(coupon.id, coupon.amount_off);
      counts.coupons++;
      return send(200, coupon);
    }
    if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
      let subtotal = 0;
      for (let line = 0; form.has(`line_items[${line}][quantity]`); line++) {
        subtotal += Number(form.get(`line_items[${line}][quantity]`)) * Number(form.get(`line_items[${line}][price_data][unit_amount]`));
      }
      const shipping = Number(form.get("shipping_options[0][shipping_rate_data][fixed_amount][amount]") ?? 0);
      const coupon = form.get("discounts[0][coupon]");
      const discount = (coupon === null ? undefined : coupons.get(coupon)) ?? 0;
      const sessionId = id("cs_bench");
      counts.sessions++;
      totals.set(sessionId, subtotal - discount + shipping);
      const session = {
        id: sessionId,
        object: "checkout.session",
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_subtotal: subtotal,
        amount_total: subtotal - discount + shipping,
        client_reference_id: form.get("client_reference_id"),
        metadata: { orderId: form.get("metadata[orderId]") },
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      };
      sessions.set(sessionId, session);
      return send(200, session);
    }
    // A session asked for again (the confirmation page's check): the bench asks only for sessions it has paid.
    const asked = /^\/v1\/checkout\/sessions\/([^/?]+)/.exec(request.url ?? "")?.[1];
    const session = request.method === "GET" && asked !== undefined ? sessions.get(asked) : undefined;
    if (session) return send(200, { ...session, status: "complete", payment_status: "paid", payment_intent: `pi_${asked}` });
    counts.other++;
    send(404, { error: { type: "invalid_request_error", message: `bench stand-in: no ${request.method} ${request.url}` } });
  };
}

/**
 * Nominatim's search: every address is at the same point in Santa Monica (inside the delivery area).
 * @param {Counts} counts
 * @returns {(request: IncomingMessage, response: ServerResponse) => void}
 */
function geocoderHandler(counts) {
  return (request, response) => {
    counts.geocodes++;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify([{ lat: "34.0195", lon: "-118.4912", display_name: "Santa Monica, CA" }]));
  };
}

/**
 * An SMTP server that accepts every message and keeps none of it (but the last few in `messages`).
 * @param {Counts} counts @param {string[]} messages
 */
function smtpSink(counts, messages) {
  /** @type {Set<import("node:net").Socket>} */
  const sockets = new Set();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    let data = false;
    let buffer = "";
    socket.write("220 bench ESMTP\r\n");
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (;;) {
        if (data) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          messages.push(buffer.slice(0, end));
          if (messages.length > 10) messages.shift();
          buffer = buffer.slice(end + 5);
          data = false;
          counts.emails++;
          socket.write("250 OK queued\r\n");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-bench\r\n250 8BITMIME\r\n");
        else if (verb === "DATA") {
          data = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
          return;
        } else socket.write("250 OK\r\n");
      }
    });
  });
  // As node:http's servers have it: stop() closes the connections a client keeps open.
  return Object.assign(server, {
    closeAllConnections() {
      for (const socket of sockets) socket.destroy();
    },
  });
}

/** Starts the three stand-ins; `urls` are what the shop's environment names, `counts` what each was asked. */
export async function startProviders() {
  const counts = { coupons: 0, sessions: 0, other: 0, geocodes: 0, emails: 0 };
  /** Each Checkout Session's total, for the payment notices the bench sends as Stripe. @type {Map<string, number>} */
  const totals = new Map();
  const stripe = createServer(stripeHandler(counts, totals));
  const geocoder = createServer(geocoderHandler(counts));
  /** The last few messages the SMTP server took, as sent. @type {string[]} */
  const messages = [];
  const smtp = smtpSink(counts, messages);
  const [stripePort, geocoderPort, smtpPort] = await Promise.all([listen(stripe), listen(geocoder), listen(smtp)]);
  return {
    env: {
      STRIPE_API_URL: `http://127.0.0.1:${stripePort}`,
      GEOCODER_URL: `http://127.0.0.1:${geocoderPort}/search`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    },
    counts,
    totals,
    messages,
    async stop() {
      for (const server of [stripe, geocoder, smtp]) {
        server.closeAllConnections?.();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/**
 * A webhook body and its Stripe-Signature header, signed with `secret` as Stripe signs (HMAC-SHA256 of "t.body").
 * @param {unknown} event @param {string} secret
 */
export function signedEvent(event, secret) {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { body, header: `t=${timestamp},v1=${signature}` };
}
