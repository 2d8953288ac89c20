// The admin figures' database: 100,000 paid orders (and a few thousand
// abandoned checkouts) over four months, written with multi-row INSERTs in
// one transaction. Made once and reused; `--fresh-db` makes it again.
import { createClient } from "@libsql/client";

export const PAID_ORDERS = 100_000;
const ABANDONED_CHECKOUTS = 3_000;
const DAYS = 120;
const ROWS_PER_INSERT = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A seeded generator, so that every machine gets the same orders (mulberry32). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_NAMES = [
  "Olivia", "Liam", "Emma", "Noah", "Sofia", "Mateo", "Mia", "Lucas", "Isabella", "Ethan", "Camila", "Daniel",
  "Ava", "Sebastian", "Harper", "Leo", "Chloe", "Julian", "Zoe", "Gabriel", "Aria", "Adrian", "Layla", "Diego",
  "Hannah", "Kai", "Grace", "Jayden", "Nora", "Elijah", "Lily", "Ryan", "Maya", "Aiden", "Valentina", "Owen",
];
const LAST_NAMES = [
  "Garcia", "Martinez", "Nguyen", "Kim", "Lopez", "Smith", "Johnson", "Hernandez", "Lee", "Chen", "Rodriguez",
  "Brown", "Park", "Gonzalez", "Williams", "Davis", "Patel", "Wong", "Rivera", "Flores", "Tran", "Cohen",
  "Miller", "Sanchez", "Ramirez", "Torres", "Wilson", "Anderson", "Thomas", "Moore", "Jackson", "Ali",
];
/** Mail providers with rough US shares, then small ones: schools, companies, ISPs. */
const DOMAINS = [
  ["gmail.com", 38], ["yahoo.com", 10], ["icloud.com", 10], ["outlook.com", 8], ["hotmail.com", 5], ["aol.com", 2],
  ["me.com", 2], ["live.com", 1], ["msn.com", 1], ["comcast.net", 1], ["sbcglobal.net", 1], ["att.net", 1],
  ["verizon.net", 1], ["protonmail.com", 1], ["ucla.edu", 1], ["usc.edu", 1], ["caltech.edu", 0.5],
  ["cox.net", 0.5], ["charter.net", 0.5], ["earthlink.net", 0.5], ["fastmail.com", 0.5], ["hey.com", 0.3],
  ["snap.com", 0.3], ["hulu.com", 0.3], ["riotgames.com", 0.3], ["cedars-sinai.org", 0.3], ["lausd.net", 0.3],
  ["lacity.org", 0.3], ["spacex.com", 0.2], ["disney.com", 0.2],
];
/** Where orders go: city, ZIP, straight-line tenths of a mile from the West LA kitchen. */
const PLACES = [
  ["Santa Monica", "90401", 33], ["Venice", "90291", 45], ["Culver City", "90232", 42], ["Beverly Hills", "90210", 40],
  ["West Hollywood", "90069", 60], ["Westwood", "90024", 21], ["Brentwood", "90049", 33], ["Mar Vista", "90066", 31],
  ["Inglewood", "90301", 83], ["Silver Lake", "90026", 108], ["Los Angeles", "90012", 123], ["Burbank", "91502", 138],
  ["Glendale", "91203", 142], ["Torrance", "90503", 152], ["Pasadena", "91101", 187], ["Long Beach", "90802", 227],
];
const STREETS = ["Wilshire Blvd", "Ocean Ave", "Main St", "Venice Blvd", "Pico Blvd", "Sunset Blvd", "Olympic Blvd", "Lincoln Blvd", "Montana Ave", "Abbot Kinney Blvd"];

function weighted(next, pairs) {
  const total = pairs.reduce((sum, [, weight]) => sum + weight, 0);
  let pick = next() * total;
  for (const [value, weight] of pairs) {
    pick -= weight;
    if (pick < 0) return value;
  }
  return pairs[pairs.length - 1][0];
}

const pickFrom = (next, list) => list[Math.floor(next() * list.length)];
/** Prisma's DateTime as the libSQL adapter stores it. */
const sqliteDate = (ms) => new Date(ms).toISOString().replace("Z", "+00:00");

function uuid(next) {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** Lower case, no +tag, and Gmail without dots: app/lib/email.ts's canonical mailbox. */
function mailboxOf(email) {
  let [local, domain] = email.toLowerCase().split("@");
  local = local.split("+")[0];
  if (domain === "gmail.com") local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}

/** Fulfilment status by the order's age: old orders are delivered, today's are still in the kitchen. */
function statusFor(next, ageMs) {
  if (ageMs > 7 * DAY_MS) return weighted(next, [["delivered", 95], ["shipped", 3], ["preparing", 1], ["pending", 1]]);
  if (ageMs > 2 * DAY_MS) return weighted(next, [["delivered", 50], ["shipped", 35], ["preparing", 10], ["pending", 5]]);
  return weighted(next, [["pending", 40], ["preparing", 35], ["shipped", 20], ["delivered", 5]]);
}

function zoneOf(tenths) {
  if (tenths <= 100) return "standard";
  return tenths <= 200 ? "extended" : "premium";
}

function* generateOrders(products, now) {
  const next = random(20261122);
  const customers = Array.from({ length: 30_000 }, (_, index) => {
    const firstName = pickFrom(next, FIRST_NAMES);
    const lastName = pickFrom(next, LAST_NAMES);
    const domain = weighted(next, DOMAINS);
    const style = next();
    const local =
      style < 0.5
        ? `${firstName}.${lastName}${index % 100}`
        : style < 0.8
          ? `${firstName[0]}${lastName}${index}`
          : `${firstName}${index}+chillpb`;
    // Most people type their address in lower case; some keep the capitals.
    const typed = `${local}@${domain}`;
    const email = style < 0.1 ? typed : typed.toLowerCase();
    const [city, zipCode, tenths] = pickFrom(next, PLACES);
    return {
      email,
      mailbox: mailboxOf(email),
      firstName,
      lastName,
      phone: next() < 0.6 ? `(310) 555-${String(1000 + (index % 9000)).padStart(4, "0")}` : null,
      address: `${100 + Math.floor(next() * 12000)} ${pickFrom(next, STREETS)}`,
      city,
      zipCode,
      tenths: tenths + Math.floor(next() * 10),
    };
  });
  const total = PAID_ORDERS + ABANDONED_CHECKOUTS;
  const abandonEvery = Math.floor(total / ABANDONED_CHECKOUTS);
  const claimed = new Set();
  let abandoned = 0;
  for (let index = 0; index < total; index++) {
    // More orders lately than four months ago, as a growing shop has.
    const createdAt = Math.round(now - DAYS * DAY_MS * next() ** 1.4);
    const customer = customers[Math.floor(next() ** 1.5 * customers.length)];
    const paid = !(index % abandonEvery === 0 && abandoned < ABANDONED_CHECKOUTS);
    if (!paid) abandoned++;
    const items = [];
    const lines = 1 + Math.floor(next() * 3);
    const shelf = [...products];
    for (let line = 0; line < lines; line++) {
      const [product] = shelf.splice(Math.floor(next() * shelf.length), 1);
      items.push({ ...product, quantity: 1 + Math.floor(next() * 4) });
    }
    let subtotal = items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
    while (subtotal < 2000) {
      items[0].quantity++;
      subtotal += items[0].priceCents;
    }
    // WELCOME10 on some first paid orders; the claim is unique per mailbox, as the shop keeps it.
    const welcome = paid && !claimed.has(customer.mailbox) && next() < 0.3;
    if (paid) claimed.add(customer.mailbox);
    const discount = welcome ? Math.round(subtotal * 0.1) : 0;
    const shipping = subtotal >= 5000 ? 0 : 1000;
    const status = paid ? statusFor(next, now - createdAt) : "pending";
    const reached = (step) => paid && ["pending", "preparing", "shipped", "delivered"].indexOf(status) >= step;
    yield {
      id: uuid(next),
      status,
      paymentStatus: paid ? "paid" : weighted(next, [["expired", 70], ["cancelled", 20], ["unpaid", 10]]),
      email: customer.email,
      mailbox: customer.mailbox,
      // The indexed domain the admin's search matches (app/lib/email.ts mailboxDomain).
      emailDomain: customer.mailbox.slice(customer.mailbox.lastIndexOf("@") + 1),
      firstName: customer.firstName,
      lastName: customer.lastName,
      phone: customer.phone,
      address: customer.address,
      city: customer.city,
      state: "CA",
      zipCode: customer.zipCode,
      subtotalCents: subtotal,
      discountCents: discount,
      shippingCents: shipping,
      totalCents: subtotal - discount + shipping,
      discountCode: welcome ? "WELCOME10" : null,
      firstOrderClaim: welcome ? `WELCOME10:${customer.mailbox}` : null,
      deliveryZone: zoneOf(customer.tenths),
      distanceTenths: customer.tenths,
      stripeSessionId: `cs_test_bench_${String(index).padStart(6, "0")}`,
      paidAt: paid ? sqliteDate(createdAt + 60_000 + Math.floor(next() * 240_000)) : null,
      chefNotified: paid,
      preparingSent: reached(1),
      shippedSent: reached(2),
      deliveredSent: reached(3),
      createdAt: sqliteDate(createdAt),
      updatedAt: sqliteDate(Math.min(now, createdAt + Math.floor(next() * 3 * DAY_MS))),
      items,
    };
  }
}

// Every column the shop writes when it takes an order: a column the app derives
// from another (a search key, say) must be added here too, or the bench's
// orders would lack it and its query would measure an empty index.
const ORDER_COLUMNS = [
  "id", "status", "paymentStatus", "email", "mailbox", "emailDomain", "firstName", "lastName", "phone", "address", "city", "state",
  "zipCode", "subtotalCents", "discountCents", "shippingCents", "totalCents", "discountCode", "firstOrderClaim",
  "deliveryZone", "distanceTenths", "stripeSessionId", "paidAt", "chefNotified", "preparingSent", "shippedSent",
  "deliveredSent", "createdAt", "updatedAt",
];
const ITEM_COLUMNS = ["orderId", "productId", "name", "unitPriceCents", "quantity"];

function insert(table, columns, rows) {
  const placeholders = `(${columns.map(() => "?").join(", ")})`;
  return {
    sql: `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES ${rows.map(() => placeholders).join(", ")}`,
    args: rows.flatMap((row) => columns.map((column) => (typeof row[column] === "boolean" ? Number(row[column]) : row[column]))),
  };
}

/**
 * Makes sure `file` (already migrated and seeded) holds the 100,000 paid
 * orders: fills it when it does not, and when it was filled days ago moves
 * every date forward so that "the last 30 days" still hold a month of orders.
 * Returns what it did.
 */
export async function ensureOrders(file) {
  const client = createClient({ url: `file:${file}` });
  try {
    const count = async (sql) => Number((await client.execute(sql)).rows[0].count);
    const paid = await count(`SELECT count(*) AS count FROM "Order" WHERE "paymentStatus" = 'paid'`);
    if (paid === PAID_ORDERS) return { filled: false, shiftedHours: await shiftDates(client) };
    const started = performance.now();
    const products = (await client.execute(`SELECT id, name, "priceCents" FROM "Product" ORDER BY position`)).rows.map(
      (row) => ({ id: row.id, name: row.name, priceCents: Number(row.priceCents) }),
    );
    // Whatever an older fill left, then the new orders, in one transaction.
    const statements = [
      `DELETE FROM "OrderItem"`,
      `DELETE FROM "OrderStatusChange"`,
      `UPDATE "OutboxMessage" SET "orderId" = NULL`,
      `DELETE FROM "Order"`,
    ].map((sql) => ({ sql, args: [] }));
    let batch = [];
    const flush = () => {
      statements.push(insert("Order", ORDER_COLUMNS, batch));
      const items = batch.flatMap((order) =>
        order.items.map((item) => ({ orderId: order.id, productId: item.id, name: item.name, unitPriceCents: item.priceCents, quantity: item.quantity })),
      );
      for (let start = 0; start < items.length; start += ROWS_PER_INSERT) {
        statements.push(insert("OrderItem", ITEM_COLUMNS, items.slice(start, start + ROWS_PER_INSERT)));
      }
      batch = [];
    };
    for (const order of generateOrders(products, Date.now())) {
      batch.push(order);
      if (batch.length === ROWS_PER_INSERT) flush();
    }
    if (batch.length > 0) flush();
    // The dashboard's daily totals, as the shop keeps them when orders are paid
    // (the same Los Angeles-day rule as the migration that added them).
    statements.push(`DELETE FROM "DailySales"`, `INSERT INTO "DailySales" ("day", "orders", "revenueCents")
SELECT "day", COUNT(*), SUM("totalCents") FROM (
    SELECT date("createdAt", CASE
        WHEN datetime("createdAt") >= datetime(strftime('%Y', "createdAt") || '-03-01', 'weekday 0', '+7 days', '+10 hours')
         AND datetime("createdAt") < datetime(strftime('%Y', "createdAt") || '-11-01', 'weekday 0', '+9 hours')
        THEN '-7 hours' ELSE '-8 hours' END) AS "day", "totalCents"
    FROM "Order" WHERE "paymentStatus" = 'paid'
) GROUP BY "day"`);
    await client.batch(statements, "write");
    await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    await client.execute("ANALYZE");
    return { filled: true, seconds: (performance.now() - started) / 1000 };
  } finally {
    client.close();
  }
}

/** Moves every order's dates forward by the time since the newest one, when that is more than six hours. */
async function shiftDates(client) {
  const newest = (await client.execute(`SELECT max("createdAt") AS newest FROM "Order"`)).rows[0].newest;
  const hours = Math.floor((Date.now() - Date.parse(String(newest))) / 3_600_000);
  if (hours < 6) return 0;
  const shifted = (column) => `strftime('%Y-%m-%dT%H:%M:%f+00:00', "${column}", '+${hours} hours')`;
  await client.execute(
    `UPDATE "Order" SET "createdAt" = ${shifted("createdAt")}, "updatedAt" = ${shifted("updatedAt")}, "paidAt" = CASE WHEN "paidAt" IS NULL THEN NULL ELSE ${shifted("paidAt")} END`,
  );
  return hours;
}
