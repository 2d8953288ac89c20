// How long a burst of email takes to leave (decision 038): 12,000 emails
// queued at once, as 6,000 orders leave them (a confirmation and a kitchen
// email each), sent by the shop's own workers to a mail server on 127.0.0.1
// that only counts. Prints the time from the burst to the last email received,
// and checks that each email arrived exactly once.
//
//   node scripts/email-drain.mjs                                  one instance, the embedded PostgreSQL
//   node scripts/email-drain.mjs --instances 2                    two instances over it
//   TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/postgres node scripts/email-drain.mjs --database server --instances 2
//
// Needs a built shop (npm run build). Everything stays on 127.0.0.1.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { benchDatabase } from "./bench/server.mjs";
import { createScratchDatabase } from "./scratch-postgres.mjs";

const { values } = parseArgs({
  options: {
    database: { type: "string", default: "embedded" },
    instances: { type: "string", default: "1" },
    emails: { type: "string", default: "12000" },
    concurrency: { type: "string", default: "4" },
  },
});
const EMAILS = Number(values.emails);
const PORTS = Array.from({ length: Number(values.instances) }, (_, index) => 3651 + index);

const database =
  values.database === "server"
    ? await createScratchDatabase(/** @type {string} */ (process.env.TEST_POSTGRES_URL), "chillpb_drain")
    : await benchDatabase("chillpb_drain", { fresh: true });
const finish = "drop" in database ? database.drop : database.release;

// --- A mail server that only counts ------------------------------------------
/** @type {Map<string, number>} */
const received = new Map();
let lastAt = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  disableReverseLookup: true,
  onData(stream, _session, callback) {
    let head = "";
    stream.on("data", (chunk) => {
      if (head.length < 2048) head += chunk.toString();
    });
    stream.on("end", () => {
      const id = /^Message-ID: <([^@>]+)@/im.exec(head)?.[1] ?? "?";
      received.set(id, (received.get(id) ?? 0) + 1);
      lastAt = Date.now();
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", () => resolve(undefined)));
const smtpPort = /** @type {import("node:net").AddressInfo} */ (smtp.server.address()).port;

// --- The shop (the demo's build, with a real mail server) ---------------------
const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
const servers = [];
for (const port of PORTS) {
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...inherited,
      PORT: String(port),
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      OUTBOX_CONCURRENCY: values.concurrency,
      SKIP_BUILD: "true",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  servers.push(child);
  for (let tries = 0; ; tries++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (tries > 300) throw new Error(`instance ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// --- The burst ---------------------------------------------------------------
const client = new pg.Client({ connectionString: database.url });
await client.connect();
await client.query(`DELETE FROM "OutboxMessage"`);
const html = `<p>${"Your order is confirmed. ".repeat(40)}</p>`;
const queuedAt = Date.now();
await client.query(
  `INSERT INTO "OutboxMessage" ("id", "kind", "to", "subject", "text", "html", "status", "nextAttemptAt")
   SELECT gen_random_uuid(), CASE WHEN n % 2 = 0 THEN 'order-confirmation' ELSE 'order-fulfilment' END,
          'customer-' || n || '@example.com', 'Your Chill PB order', $2, $3, 'pending', now()
     FROM generate_series(1, $1) AS n`,
  [EMAILS, html.replace(/<[^>]+>/g, ""), html],
);
const inserted = Date.now() - queuedAt;
console.log(`${EMAILS} emails queued in ${inserted} ms; ${PORTS.length} instance(s), OUTBOX_CONCURRENCY=${values.concurrency}, ${values.database} database`);

const deadline = Date.now() + 30 * 60_000;
let lastReport = Date.now();
while (received.size < EMAILS && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  if (Date.now() - lastReport > 10_000) {
    console.log(`  ${received.size} received after ${((Date.now() - queuedAt) / 1000).toFixed(0)} s`);
    lastReport = Date.now();
  }
}
const seconds = (lastAt - queuedAt) / 1000;
const duplicates = [...received.values()].filter((times) => times > 1).length;
const { rows } = await client.query(`SELECT status, count(*)::int AS count FROM "OutboxMessage" GROUP BY status ORDER BY status`);
console.log(
  `Last email received ${seconds.toFixed(1)} s after the burst (${Math.round(received.size / seconds)} emails/s); ` +
    `${received.size} of ${EMAILS} distinct emails, ${duplicates} received more than once; outbox: ${rows.map((row) => `${row.count} ${row.status}`).join(", ")}`,
);

await client.end();
for (const child of servers) child.kill("SIGTERM");
await Promise.all(servers.map((child) => new Promise((resolve) => child.once("exit", resolve))));
smtp.close();
await finish();
process.exit(received.size === EMAILS && duplicates === 0 ? 0 : 1);
