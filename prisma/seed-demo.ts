/**
 * The demo's extras (never run in production): a demo owner and a demo staff account and
 * a month of sample paid orders, so the order dashboard has something to show.
 * Each is paid through a Checkout Session of the Stripe stand-in, so the owner
 * can try a refund on any of them.
 * Idempotent: the orders are only added once; the admin's password is reset.
 */
import { phoneKey } from "../app/lib/phone";
import { DEMO_OPERATORS } from "../app/models/database-role.server";
import { upsertAdmin } from "../app/models/operators.server";
import { createPrismaClient, db as shopDb, sqlIn } from "../app/utils/db.server";
import { priceLines, type AppliedDiscount } from "../app/models/pricing.server";
import type { ShopSettings } from "../app/lib/shop-settings";
import { shopSettings } from "../app/models/catalog.server";
import { deliveryForDistance, distanceMiles } from "../app/models/delivery.server";
import { zipCentroid } from "../app/services/geocoder.server";
import { canonicalMailbox, mailboxDomain } from "../app/lib/email";
import { recordPaymentChange } from "../app/models/daily-sales.server";
import { catalogue } from "./catalogue";

const DEMO_DOMAIN = "demo.chillpb.example";

const WELCOME10: AppliedDiscount = {
  code: "WELCOME10",
  kind: "percent",
  terms: { basisPoints: 1000 },
  minimumSubtotalCents: null,
  appliesTo: "all",
  description: "10% off your first order",
  firstOrderOnly: true,
};

const people = [
  ["Olivia", "Martinez", "Santa Monica", "90405"],
  ["Liam", "Nguyen", "Culver City", "90230"],
  ["Emma", "Johnson", "Venice", "90291"],
  ["Noah", "Kim", "Manhattan Beach", "90266"],
  ["Ava", "Patel", "Westwood", "90024"],
  ["Lucas", "Garcia", "Torrance", "90503"],
  ["Mia", "Brown", "Brentwood", "90049"],
  ["Ethan", "Lopez", "Redondo Beach", "90277"],
] as const;
const statuses = ["delivered", "delivered", "shipped", "preparing", "pending"] as const;

export async function seedDemo(db = createPrismaClient()) {
  for (const operator of DEMO_OPERATORS) await upsertAdmin(operator.email, operator.password, operator.role);
  if ((await db.order.count({ where: { email: { endsWith: `@${DEMO_DOMAIN}` } } })) > 0) return;

  const settings = await shopSettings({ maxAgeMs: 0 });
  const now = Date.now();
  // A month of orders: one or two a day, more at weekends.
  const days = Array.from({ length: 30 }, (_, daysAgo) => daysAgo);
  const plan = days.flatMap((daysAgo) => Array.from({ length: 1 + (daysAgo % 7 >= 5 ? 2 : 0) + (daysAgo % 3 === 0 ? 1 : 0) }, () => daysAgo));
  for (const [index, daysAgo] of plan.entries()) {
    const [firstName, lastName, city, zipCode] = people[index % people.length]!;
    const picks = [catalogue[index % catalogue.length]!, catalogue[(index * 3 + 1) % catalogue.length]!];
    const items = picks.map((product, n) => ({ product, quantity: 2 + ((index + n) % 3) }));
    // Placed and priced by the shop's own rules: its distance from the kitchen, its zone and that zone's terms.
    const delivery = await demoDelivery(zipCode, settings);
    const { subtotalCents, discountCents, shippingCents, totalCents } = priceLines(items, index % 4 === 0 ? WELCOME10 : null, {
      settings,
      zone: delivery.zone,
    });
    const status = daysAgo > 3 ? "delivered" : statuses[index % statuses.length]!;
    const createdAt = new Date(now - daysAgo * 24 * 60 * 60 * 1000 - (index % 5) * 60 * 60 * 1000);
    const email = `${firstName.toLowerCase()}.${lastName.toLowerCase()}${index}@${DEMO_DOMAIN}`;
    const phone = "(310) 555-01" + String(10 + index).padStart(2, "0");
    const payment = await demoPayment(db, { index, email, createdAt, subtotalCents, discountCents, shippingCents, totalCents, items });
    // Written paid, so it joins its day's paid orders as a payment would.
    await db.$transaction(async (tx) => {
      const order = await tx.order.create({
        data: {
          email,
          mailbox: canonicalMailbox(email),
          emailDomain: mailboxDomain(email),
          firstName,
          lastName,
          phone,
          phoneDigits: phoneKey(phone),
          address: `${100 + index * 7} Ocean Ave`,
          city,
          state: "CA",
          zipCode,
          subtotalCents,
          discountCents,
          discountCode: discountCents ? "WELCOME10" : null,
          shippingCents,
          totalCents,
          stripeSessionId: payment.sessionId,
          paymentIntentId: payment.paymentIntentId,
          deliveryZone: delivery.zone.name,
          distanceTenths: delivery.distanceTenths,
          paymentStatus: "paid",
          paidAt: createdAt,
          status,
          chefNotified: true,
          preparingSent: status !== "pending",
          shippedSent: status === "shipped" || status === "delivered",
          deliveredSent: status === "delivered",
          createdAt,
          items: {
            create: items.map((item) => ({
              productId: item.product.id,
              name: item.product.name,
              unitPriceCents: item.product.priceCents,
              quantity: item.quantity,
            })),
          },
        },
      });
      await recordPaymentChange(sqlIn(tx), order, "unpaid", "paid");
    });
  }
}

/**
 * Where a sample order's address stands, as the shop would place it with the
 * geocoder away (the seed asks no outside service): its ZIP code's middle,
 * measured from the kitchen, on the owner's zones (decision 005's fallback).
 */
async function demoDelivery(zipCode: string, settings: ShopSettings) {
  const position = await zipCentroid(zipCode);
  if (!position) throw new Error(`The demo's ZIP code ${zipCode} is not one the shop can place`);
  const check = deliveryForDistance(settings, distanceMiles(settings.kitchen, position));
  const zone = check.ok ? settings.zones.find((candidate) => candidate.name === check.zone) : undefined;
  if (!check.ok || !zone) throw new Error(`The demo's ZIP code ${zipCode} is outside the delivery area`);
  return { zone, distanceTenths: Math.round(check.miles * 10) };
}

type DemoPayment = {
  index: number;
  email: string;
  createdAt: Date;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  items: { product: { name: string; priceCents: number }; quantity: number }[];
};

/** A paid session of the Stripe stand-in (mocks/stripe.ts) for a sample order: what its refunds are made against. */
async function demoPayment(db: ReturnType<typeof createPrismaClient>, order: DemoPayment) {
  const suffix = `${String(order.index).padStart(4, "0")}${order.createdAt.getTime().toString(36)}`;
  const sessionId = `cs_test_demo${suffix}`;
  const paymentIntentId = `pi_test_demo${suffix}`;
  await db.mockCheckoutSession.create({
    data: {
      id: sessionId,
      status: "complete",
      paymentStatus: "paid",
      customerEmail: order.email,
      clientReferenceId: null,
      metadata: "{}",
      amountSubtotal: order.subtotalCents,
      amountDiscount: order.discountCents,
      amountShipping: order.shippingCents,
      amountTotal: order.totalCents,
      lineItems: JSON.stringify(order.items.map((item) => ({ name: item.product.name, quantity: item.quantity, unit_amount: item.product.priceCents }))),
      successUrl: "http://localhost/order-success",
      cancelUrl: "http://localhost/checkout?cancelled=true",
      url: "http://localhost/mock-stripe/pay/" + sessionId,
      createdAt: order.createdAt,
      expiresAt: order.createdAt,
      paymentIntent: paymentIntentId,
    },
  });
  return { sessionId, paymentIntentId };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The models' own client (upsertAdmin writes through it): a second one would keep its idle connections, and this process, alive for ten seconds.
  const db = shopDb;
  void seedDemo(db)
    .then(() => {
      const [owner, staff] = DEMO_OPERATORS;
      console.log(`Demo owner: ${owner.email} / ${owner.password} (sign in at /admin)`);
      console.log(`Demo staff: ${staff.email} / ${staff.password}`);
    })
    .catch((error: unknown) => {
      console.error("The demo could not be seeded:", error);
      process.exitCode = 1;
    })
    .finally(() => db.$disconnect());
}
