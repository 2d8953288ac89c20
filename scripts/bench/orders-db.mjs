// The operator figures' database: paid orders (and abandoned checkouts, one
// in 34) over four months, generated inside PostgreSQL with generate_series,
// so a million orders take minutes, not hours. Made once per size and reused;
// `--fresh-db` makes it again. The same seed gives the same orders everywhere.
import pg from "pg";

const DAYS = 120;
const CUSTOMERS = 30_000;
const ABANDONED_EVERY = 34;

/** Mail providers with rough US shares, then small ones: schools, companies, ISPs. @type {[string, number][]} */
const DOMAINS = [
  ["gmail.com", 38],
  ["yahoo.com", 10],
  ["icloud.com", 10],
  ["outlook.com", 8],
  ["hotmail.com", 5],
  ["aol.com", 2],
  ["me.com", 2],
  ["live.com", 1],
  ["msn.com", 1],
  ["comcast.net", 1],
  ["sbcglobal.net", 1],
  ["att.net", 1],
  ["verizon.net", 1],
  ["protonmail.com", 1],
  ["ucla.edu", 1],
  ["usc.edu", 1],
  ["caltech.edu", 0.5],
  ["cox.net", 0.5],
  ["charter.net", 0.5],
  ["earthlink.net", 0.5],
  ["fastmail.com", 0.5],
  ["hey.com", 0.3],
  ["snap.com", 0.3],
  ["hulu.com", 0.3],
  ["riotgames.com", 0.3],
  ["cedars-sinai.org", 0.3],
  ["lausd.net", 0.3],
  ["lacity.org", 0.3],
  ["spacex.com", 0.2],
  ["disney.com", 0.2],
];
const FIRST_NAMES = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Sofia",
  "Mateo",
  "Mia",
  "Lucas",
  "Isabella",
  "Ethan",
  "Camila",
  "Daniel",
  "Ava",
  "Sebastian",
  "Harper",
  "Leo",
  "Chloe",
  "Julian",
  "Zoe",
  "Gabriel",
  "Aria",
  "Adrian",
  "Layla",
  "Diego",
  "Hannah",
  "Kai",
  "Grace",
  "Jayden",
  "Nora",
  "Elijah",
  "Lily",
  "Ryan",
  "Maya",
  "Aiden",
  "Valentina",
  "Owen",
];
const LAST_NAMES = [
  "Garcia",
  "Martinez",
  "Nguyen",
  "Kim",
  "Lopez",
  "Smith",
  "Johnson",
  "Hernandez",
  "Lee",
  "Chen",
  "Rodriguez",
  "Brown",
  "Park",
  "Gonzalez",
  "Williams",
  "Davis",
  "Patel",
  "Wong",
  "Rivera",
  "Flores",
  "Tran",
  "Cohen",
  "Miller",
  "Sanchez",
  "Ramirez",
  "Torres",
  "Wilson",
  "Anderson",
  "Thomas",
  "Moore",
  "Jackson",
  "Ali",
];
/** Where orders go: city, ZIP, straight-line tenths of a mile from the West LA kitchen. @type {[string, string, number][]} */
const PLACES = [
  ["Santa Monica", "90401", 33],
  ["Venice", "90291", 45],
  ["Culver City", "90232", 42],
  ["Beverly Hills", "90210", 40],
  ["West Hollywood", "90069", 60],
  ["Westwood", "90024", 21],
  ["Brentwood", "90049", 33],
  ["Mar Vista", "90066", 31],
  ["Inglewood", "90301", 83],
  ["Silver Lake", "90026", 108],
  ["Los Angeles", "90012", 123],
  ["Burbank", "91502", 138],
  ["Glendale", "91203", 142],
  ["Torrance", "90503", 152],
  ["Pasadena", "91101", 187],
  ["Long Beach", "90802", 227],
];
const STREETS = [
  "Wilshire Blvd",
  "Ocean Ave",
  "Main St",
  "Venice Blvd",
  "Pico Blvd",
  "Sunset Blvd",
  "Olympic Blvd",
  "Lincoln Blvd",
  "Montana Ave",
  "Abbot Kinney Blvd",
];

/** A SQL string literal. @param {string | number} value */
const text = (value) => `'${String(value).replaceAll("'", "''")}'`;
/** @param {string[]} values */
const array = (values) => `ARRAY[${values.map(text).join(", ")}]`;
/** VALUES rows: numbers as they are, anything else as a string literal. @param {(string | number)[][]} list */
const rows = (list) => list.map((row) => `(${row.map((value) => (typeof value === "number" ? value : text(value))).join(", ")})`).join(",\n      ");

/** Cumulative shares, so a random number in [0, 1) picks a domain by its weight. @returns {[string, number, number][]} */
function domainRanges() {
  const total = DOMAINS.reduce((sum, [, weight]) => sum + weight, 0);
  let low = 0;
  return DOMAINS.map(([name, weight]) => {
    /** @type {[string, number, number]} */
    const range = [name, low / total, (low + weight) / total];
    low += weight;
    return range;
  });
}

/**
 * The statements that fill an empty shop with `paidOrders` paid orders and
 * their abandoned checkouts, in one transaction. Each order has 1-3 lines of
 * distinct products and meets the $20 minimum; a customer's first paid order
 * may carry WELCOME10 (claimed once per mailbox, as the shop keeps it);
 * fulfilment status follows the order's age.
 *
 * @param {number} paidOrders
 */
function fillStatements(paidOrders) {
  // Orders n with n % ABANDONED_EVERY = 0 are the abandoned ones: as many in all as leaves exactly paidOrders paid.
  let total = paidOrders;
  while (total - Math.ceil(total / ABANDONED_EVERY) < paidOrders) total++;
  return [
    // One backend, so random() after setseed gives the same orders on every machine.
    "SET LOCAL max_parallel_workers_per_gather = 0",
    "SELECT setseed(0.20261122)",
    `CREATE TEMP TABLE bench_domain (name text, low float8, high float8) ON COMMIT DROP`,
    `INSERT INTO bench_domain VALUES\n      ${rows(domainRanges())}`,
    `CREATE TEMP TABLE bench_place (k int, city text, zip text, tenths int) ON COMMIT DROP`,
    `INSERT INTO bench_place VALUES\n      ${rows(PLACES.map((place, index) => [index, ...place]))}`,
    `CREATE TEMP TABLE bench_customer ON COMMIT DROP AS
     WITH drawn AS (
       SELECT n,
              (${array(FIRST_NAMES)})[1 + floor(random() * ${FIRST_NAMES.length})::int] AS first_name,
              (${array(LAST_NAMES)})[1 + floor(random() * ${LAST_NAMES.length})::int] AS last_name,
              random() AS domain_pick, random() AS style, random() AS phone_pick,
              100 + floor(random() * 12000)::int AS house,
              (${array(STREETS)})[1 + floor(random() * ${STREETS.length})::int] AS street,
              floor(random() * ${PLACES.length})::int AS place, floor(random() * 10)::int AS jitter
         FROM generate_series(0, ${CUSTOMERS - 1}) AS n
     ), typed AS (
       SELECT drawn.*, d.name AS domain,
              CASE WHEN style < 0.5 THEN first_name || '.' || last_name || (n % 100)
                   WHEN style < 0.8 THEN left(first_name, 1) || last_name || n
                   ELSE first_name || n || '+chillpb' END || '@' || d.name AS typed_email
         FROM drawn JOIN bench_domain d ON drawn.domain_pick >= d.low AND drawn.domain_pick < d.high
     ), emails AS (
       -- Most people type their address in lower case; some keep the capitals.
       SELECT typed.*, CASE WHEN style < 0.1 THEN typed_email ELSE lower(typed_email) END AS email FROM typed
     )
     SELECT emails.n, first_name, last_name, email, domain,
            -- app/lib/email.ts's canonical mailbox: lower case, no +tag, Gmail without dots.
            CASE WHEN domain = 'gmail.com' THEN replace(split_part(split_part(lower(email), '@', 1), '+', 1), '.', '')
                 ELSE split_part(split_part(lower(email), '@', 1), '+', 1) END || '@' || domain AS mailbox,
            CASE WHEN phone_pick < 0.6 THEN '(310) 555-' || lpad((1000 + n % 9000)::text, 4, '0') END AS phone,
            house || ' ' || street AS address, p.city, p.zip, p.tenths + jitter AS tenths
       FROM emails JOIN bench_place p ON p.k = emails.place`,
    `CREATE UNIQUE INDEX ON bench_customer (n)`,
    // The orders' draws: more orders lately than four months ago, as a growing shop has.
    `CREATE TEMP TABLE bench_order ON COMMIT DROP AS
     SELECT n,
            floor(random() ^ 1.5 * ${CUSTOMERS})::int AS customer,
            now() - (random() ^ 1.4) * interval '${DAYS} days' AS created_at,
            n % ${ABANDONED_EVERY} <> 0 AS paid,
            1 + floor(random() * 3)::int AS lines, floor(random() * 6)::int AS first_product,
            CASE WHEN random() < 0.5 THEN 1 ELSE 5 END AS step,
            random() AS status_pick, random() AS welcome_pick, random() AS payment_pick, random() AS paid_after, random() AS updated_after,
            gen_random_uuid()::text AS id
       FROM generate_series(0, ${total - 1}) AS n`,
    // 1-3 lines of distinct products (steps 1 and 5 visit every product before repeating one).
    `CREATE TEMP TABLE bench_item ON COMMIT DROP AS
     SELECT o.id AS order_id, line, p.id AS product_id, p.name, p."priceCents" AS price, 1 + floor(random() * 4)::int AS quantity
       FROM bench_order o
       CROSS JOIN LATERAL generate_series(0, o.lines - 1) AS line
       JOIN (SELECT id, name, "priceCents", row_number() OVER (ORDER BY position) - 1 AS k FROM "Product") p
         ON p.k = (o.first_product + line * o.step) % 6`,
    // The $20 minimum: the first line grows until the order reaches it.
    `UPDATE bench_item i SET quantity = i.quantity + ceil((2000 - t.subtotal)::numeric / i.price)::int
       FROM (SELECT order_id, sum(price * quantity) AS subtotal FROM bench_item GROUP BY order_id) t
      WHERE i.order_id = t.order_id AND i.line = 0 AND t.subtotal < 2000`,
    `INSERT INTO "Order" ("id", "status", "paymentStatus", "email", "mailbox", "emailDomain", "firstName", "lastName", "phone",
                          "phoneDigits", "address", "city", "state", "zipCode", "subtotalCents", "discountCents", "shippingCents", "totalCents",
                          "discountCode", "firstOrderClaim", "deliveryZone", "distanceTenths", "stripeSessionId", "paidAt",
                          "chefNotified", "preparingSent", "shippedSent", "deliveredSent", "createdAt", "updatedAt")
     WITH priced AS (
       SELECT o.*, c.email, c.mailbox, c.domain, c.first_name, c.last_name, c.phone, c.address, c.city, c.zip, c.tenths,
              t.subtotal::int AS subtotal, extract(epoch FROM now() - o.created_at) / 86400 AS age_days
         FROM bench_order o
         JOIN bench_customer c ON c.n = o.customer
         JOIN (SELECT order_id, sum(price * quantity) AS subtotal FROM bench_item GROUP BY order_id) t ON t.order_id = o.id
     ), welcomed AS (
       SELECT priced.*,
              paid AND welcome_pick < 0.3
                AND row_number() OVER (PARTITION BY mailbox, paid ORDER BY created_at, n) = 1 AS welcome,
              CASE WHEN NOT paid THEN 'pending'
                   WHEN age_days > 7 THEN CASE WHEN status_pick < 0.95 THEN 'delivered' WHEN status_pick < 0.98 THEN 'shipped' WHEN status_pick < 0.99 THEN 'preparing' ELSE 'pending' END
                   WHEN age_days > 2 THEN CASE WHEN status_pick < 0.50 THEN 'delivered' WHEN status_pick < 0.85 THEN 'shipped' WHEN status_pick < 0.95 THEN 'preparing' ELSE 'pending' END
                   ELSE CASE WHEN status_pick < 0.40 THEN 'pending' WHEN status_pick < 0.75 THEN 'preparing' WHEN status_pick < 0.95 THEN 'shipped' ELSE 'delivered' END
              END AS status
         FROM priced
     ), totals AS (
       SELECT welcomed.*,
              CASE WHEN welcome THEN round(subtotal * 0.1)::int ELSE 0 END AS discount,
              CASE WHEN subtotal >= 5000 THEN 0 ELSE 1000 END AS shipping
         FROM welcomed
     )
     SELECT id, status::"OrderStatus",
            (CASE WHEN paid THEN 'paid' WHEN payment_pick < 0.7 THEN 'expired' WHEN payment_pick < 0.9 THEN 'cancelled' ELSE 'unpaid' END)::"PaymentStatus",
            email, mailbox, domain, first_name, last_name, phone,
            -- As app/lib/phone.ts keys it: the last ten digits, none for fewer.
            CASE WHEN length(regexp_replace(phone, '\\D', '', 'g')) >= 10 THEN right(regexp_replace(phone, '\\D', '', 'g'), 10) END,
            address, city, 'CA', zip,
            subtotal, discount, shipping, subtotal - discount + shipping,
            CASE WHEN welcome THEN 'WELCOME10' END, CASE WHEN welcome THEN 'WELCOME10:' || mailbox END,
            CASE WHEN tenths <= 100 THEN 'standard' WHEN tenths <= 200 THEN 'extended' ELSE 'premium' END, tenths,
            'cs_test_bench_' || lpad(n::text, 7, '0'),
            CASE WHEN paid THEN created_at + interval '60 seconds' + paid_after * interval '240 seconds' END,
            paid, paid AND status <> 'pending', paid AND status IN ('shipped', 'delivered'), paid AND status = 'delivered',
            created_at, least(now(), created_at + updated_after * interval '3 days')
       FROM totals`,
    `INSERT INTO "OrderItem" ("orderId", "productId", "name", "unitPriceCents", "quantity")
     SELECT order_id, product_id, name, price, quantity FROM bench_item ORDER BY order_id, line`,
    // The dashboard's daily totals, as the shop keeps them when orders are paid.
    "SELECT rebuild_daily_sales()",
  ];
}

/**
 * Makes sure the database of `url` (migrated and seeded) holds `paidOrders`
 * paid orders: fills it when it does not, and when it was filled hours ago
 * moves every date forward so that "the last 30 days" still hold a month of
 * orders. Answers what it did. ANALYZE follows either way, as after any bulk
 * change (docs/operations.md).
 *
 * @param {string} url @param {number} paidOrders @param {{ vacuum?: boolean }} [options]
 * @returns {Promise<{ filled: false, shiftedHours: number } | { filled: true, seconds: number }>}
 */
export async function ensureOrders(url, paidOrders, { vacuum = true } = {}) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The shop's timestamp columns hold UTC: now() must be read in UTC when it is written there.
  await client.query("SET TIME ZONE 'UTC'");
  try {
    /** @param {string} sql a query whose one row has a `count` */
    const count = async (sql) => {
      /** @type {import("pg").QueryResult<{ count: string }>} */
      const result = await client.query(sql);
      return Number(result.rows[0]?.count);
    };
    const paid = await count(`SELECT count(*) AS count FROM "Order" WHERE "paymentStatus" = 'paid'`);
    if (paid === paidOrders) {
      const shiftedHours = await shiftDates(client);
      return { filled: false, shiftedHours };
    }
    const started = performance.now();
    await client.query("BEGIN");
    for (const sql of [`DELETE FROM "OrderItem"`, `DELETE FROM "OrderStatusChange"`, `UPDATE "OutboxMessage" SET "orderId" = NULL`, `DELETE FROM "Order"`]) {
      await client.query(sql);
    }
    for (const sql of fillStatements(paidOrders)) await client.query(sql);
    await client.query("COMMIT");
    // Without `vacuum` the tables are left as a bulk import leaves them; the caller runs vacuumAnalyze when it has measured that.
    if (vacuum) await client.query("VACUUM ANALYZE");
    return { filled: true, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** VACUUM ANALYZE of the database of `url`: what an operator runs after a bulk import (docs/operations.md). @param {string} url */
export async function vacuumAnalyze(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}

/**
 * Moves every order's dates forward by the time since the newest one, when that is more than six hours.
 * @param {import("pg").Client} client
 */
async function shiftDates(client) {
  /** @type {import("pg").QueryResult<{ hours: number | null }>} */
  const newest = await client.query(`SELECT floor(extract(epoch FROM now() - max("createdAt")) / 3600)::int AS hours FROM "Order"`);
  const hours = newest.rows[0]?.hours ?? null;
  if (hours === null || hours < 6) return 0;
  const shift = `interval '${hours} hours'`;
  await client.query("BEGIN");
  await client.query(`UPDATE "Order" SET "createdAt" = "createdAt" + ${shift}, "updatedAt" = "updatedAt" + ${shift}, "paidAt" = "paidAt" + ${shift}`);
  await client.query("SELECT rebuild_daily_sales()");
  await client.query("COMMIT");
  await client.query("VACUUM ANALYZE");
  return hours;
}

/**
 * Makes sure the database of `url` holds `rows` subscribers (one in ten
 * unsubscribed) and `rows` partnership inquiries, over the last year, for the
 * owner's lists and their CSV exports (issue 38 item 6). Answers whether it
 * wrote them.
 *
 * @param {string} url @param {number} rows
 */
export async function ensureOwnerLists(url, rows) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("SET TIME ZONE 'UTC'");
  try {
    /** @type {import("pg").QueryResult<{ subscribers: string, inquiries: string }>} */
    const counts = await client.query(`SELECT (SELECT count(*) FROM "Subscriber") AS subscribers, (SELECT count(*) FROM "PartnershipInquiry") AS inquiries`);
    const [held] = counts.rows;
    if (Number(held?.subscribers) === rows && Number(held?.inquiries) === rows) return false;
    await client.query("BEGIN");
    await client.query(`DELETE FROM "Subscriber"`);
    await client.query(`DELETE FROM "PartnershipInquiry"`);
    await client.query(
      `INSERT INTO "Subscriber" (id, email, mailbox, "unsubscribeToken", "createdAt", "unsubscribedAt")
       SELECT md5('subscriber' || n)::uuid::text, 'fan' || n || '@example.com', 'fan' || n || '@example.com', md5('token' || n),
              now() - (n * interval '315 seconds'), CASE WHEN n % 10 = 0 THEN now() - (n * interval '100 seconds') END
       FROM generate_series(1, $1::int) AS n`,
      [rows],
    );
    await client.query(
      `INSERT INTO "PartnershipInquiry" (id, name, email, business, message, "createdAt")
       SELECT md5('inquiry' || n)::uuid::text, 'Buyer ' || n, 'buyer' || n || '@example.com', 'Cafe ' || (n % 500),
              'We would like to stock your bars, about ' || (n % 90 + 10) || ' a week.', now() - (n * interval '315 seconds')
       FROM generate_series(1, $1::int) AS n`,
      [rows],
    );
    await client.query("COMMIT");
    await client.query(`ANALYZE "Subscriber", "PartnershipInquiry"`);
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
