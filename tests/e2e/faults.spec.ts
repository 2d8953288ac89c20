import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "./fixtures";
import { trackerEvents } from "../support/error-tracker";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * What the process does with a fault nothing in the shop caught (decision
 * 080), in a real server process: an unhandled rejection is logged with its
 * frames and reported, and the shop goes on serving; an uncaught exception is
 * logged and reported, and the process stops as on SIGTERM and exits 1; a
 * Node process warning is a warning, not an error. The faults come from
 * tests/support/fault-probe.mjs, loaded into the process with --import; the
 * error tracker is a stand-in on the loopback that keeps what it receives.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 480 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const ORIGIN = `http://127.0.0.1:${PORT}`;

test.describe.configure({ mode: "serial" });

let database: ScratchDatabase;
let tracker: http.Server;
const envelopes: string[] = [];
let dsn = "";
const launched = new Set<ShopProcess>();

test.beforeAll(async () => {
  database = await scratchDatabase("chillpb_e2e_faults");
  tracker = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      envelopes.push(body);
      response.writeHead(200, { "Content-Type": "application/json" }).end('{"id":"stand-in"}');
    });
  });
  tracker.listen(0, "127.0.0.1");
  await once(tracker, "listening");
  dsn = `http://publickey@127.0.0.1:${(tracker.address() as AddressInfo).port}/4242`;
});

test.afterEach(async () => {
  for (const shop of launched) await shop.stop("SIGKILL");
  launched.clear();
  envelopes.length = 0;
});

test.afterAll(async () => {
  tracker?.close();
  await database?.drop();
});

async function launch(probe: string) {
  const shop = await startShop(
    PORT,
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      PUBLIC_URL: ORIGIN,
      OUTBOX_POLL_MS: "0",
      SENTRY_DSN: dsn,
      FAULT_PROBE: probe,
    },
    { origin: ORIGIN, nodeOptions: ["--import", "./tests/support/fault-probe.mjs"] },
  );
  launched.add(shop);
  return shop;
}

const events = () => trackerEvents(envelopes);

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await sleep(100);
  }
}

test("an unhandled rejection is logged with its frames and reported, and the shop goes on serving", async () => {
  const shop = await launch("rejection");
  const line = await until(() => shop.logLines().find((entry) => entry.msg === "a promise was rejected and nothing handled it"), "the rejection's line");
  expect(line.level).toBe("error");
  expect(String(line.err)).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'y'\) \[at tests\/support\/fault-probe\.mjs:\d+ \(readSlot\)/);
  const [event] = await until(() => (events().length > 0 ? events() : undefined), "the report");
  expect(event).toMatchObject({ level: "error", tags: { source: "process" } });
  expect(JSON.stringify(event)).toContain("fault-probe.mjs");
  // Still up and ready.
  expect(shop.child.exitCode).toBeNull();
  expect((await fetch(`${ORIGIN}/readyz`)).status).toBe(200);
});

test("an uncaught exception is logged and reported, and the process stops cleanly and exits 1", async () => {
  const shop = await launch("exception");
  expect(await shop.exited).toBe(1);
  const lines = shop.logLines();
  const fatal = lines.find((entry) => entry.level === "fatal");
  expect(fatal?.msg).toBe("an exception reached the top of the process: stopping cleanly, then exiting 1");
  expect(String(fatal?.err)).toContain("[at tests/support/fault-probe.mjs:");
  expect(lines.map((entry) => entry.msg)).toContain("uncaughtException: finishing the requests and the email under way (at most 25 s)…");
  expect(lines.some((entry) => /^Stopped cleanly in \d+ ms\.$/.test(String(entry.msg)))).toBe(true);
  // The report went out before the process exited.
  expect(events()).toEqual([expect.objectContaining({ tags: expect.objectContaining({ source: "process" }) })]);
});

test("a Node process warning is logged as a warning with its name, not as an error", async () => {
  const shop = await launch("warning");
  const line = await until(() => shop.logLines().find((entry) => entry.msg === "a probe of an experimental feature"), "the warning's line");
  expect(line).toMatchObject({ level: "warn", warning: "ExperimentalWarning" });
  expect(shop.logLines().filter((entry) => entry.level === "error")).toEqual([]);
  expect(shop.output()).not.toContain("ExperimentalWarning");
});
