/**
 * A child process of stripe-mock.test.ts: another server instance's Stripe
 * stand-in on the shared SQLite file (DATABASE_URL). It connects, prints
 * "ready", waits for "go" on stdin (so that every instance acts at the same
 * moment), then pays the session as its payment page does, or expires it
 * through the stand-in's API as the shop does, and prints one JSON line:
 * { done: boolean } (whether its payment or expiry went through).
 *
 * Usage: tsx tests/integration/stripe-mock-instance.ts <pay|expire> <session id>
 */
import { createInterface } from "node:readline";
import { setupServer } from "msw/node";
import { STRIPE_API, stripeHandlers, stripeMock } from "../../mocks/stripe";
import { db } from "../../app/utils/db.server";

const [action, sessionId] = process.argv.slice(2);
if ((action !== "pay" && action !== "expire") || !sessionId) throw new Error("usage: stripe-mock-instance.ts <pay|expire> <session id>");

const server = setupServer(...(await stripeHandlers()));
server.listen({ onUnhandledRequest: "error" });
await db.mockCheckoutSession.count(); // connect before the start signal
console.log("ready");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === "go") break;
lines.close();

const done =
  action === "pay" ? (await stripeMock.pay(sessionId)) !== null : (await fetch(`${STRIPE_API}/checkout/sessions/${sessionId}/expire`, { method: "POST" })).ok;
server.close();
await db.$disconnect();
console.log(JSON.stringify({ done }));
