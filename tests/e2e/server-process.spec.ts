import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import { createPrismaClient } from "../../app/utils/db.server";
import { startSmtpServer, type TestSmtpServer } from "../integration/smtp";

/**
 * The server process itself (server.mjs), on a built shop, a port and a
 * SQLite file of its own: what it does when a supervisor stops it with
 * SIGTERM while a request and an email are under way, and how it refuses to
 * start without a mail server in production.
 */

// One port per Playwright worker (3570-3579); each test starts and stops its own process on it.
const PORT = 3570 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DB = `var/e2e-server-process-${PORT}.db`;
const db = createPrismaClient(`file:./${DB}`);

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  for (const file of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(file, { force: true });
  // The catalogue only (NODE_ENV=production seeds no demo orders, so no demo emails wait in the outbox).
  execFileSync("node", ["scripts/prepare.mjs"], { env: { ...process.env, DATABASE_URL: `file:./${DB}`, SKIP_BUILD: "true", NODE_ENV: "production" }, stdio: "pipe" });
});

// A test that fails before its process exits must not leave it running (and holding the port).
const launched = new Set<ChildProcess>();
test.afterEach(() => {
  for (const child of launched) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  launched.clear();
});

test.afterAll(async () => {
  await db.$disconnect();
  for (const file of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(file, { force: true });
});

type Instance = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function launch(env: Record<string, string | undefined>): Instance {
  const child = spawn(process.execPath, ["server.mjs"], { env: { ...process.env, PORT: String(PORT), DATABASE_URL: `file:./${DB}`, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  launched.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A demo-mode production process (the stand-ins, no real money) that sends its email to `smtp`. */
async function startShop(smtp: TestSmtpServer, env: Record<string, string> = {}) {
  const instance = launch({
    NODE_ENV: "production",
    DEMO: "true",
    MOCKS: "true",
    PUBLIC_URL: ORIGIN,
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: "100",
    ...env,
  });
  for (let tries = 0; tries < 100; tries++) {
    if (await fetch(`${ORIGIN}/healthz`).then((response) => response.ok, () => false)) return instance;
    if (instance.child.exitCode !== null) break;
    await sleep(200);
  }
  instance.child.kill("SIGKILL");
  throw new Error(`the server did not start:\n${instance.output()}`);
}

function subscribe(email: string) {
  return fetch(`${ORIGIN}/functions/v1/send-welcome-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
}

/** Waits until the worker has claimed the welcome email to `to`: it is being sent. */
async function untilSending(to: string) {
  for (let tries = 0; tries < 100; tries++) {
    const row = await db.outboxMessage.findFirst({ where: { to } });
    if (row?.status === "sending") return row;
    await sleep(50);
  }
  throw new Error(`the email to ${to} was never claimed`);
}

/** What a request on a connection of its own meets: an answer's status, or the connection error's code. */
function newConnection() {
  return new Promise<string>((resolve) => {
    const request = http.get(`${ORIGIN}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(String(response.statusCode));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

/** A POST whose body arrives in two parts: `finish()` sends the rest and answers the status. */
function slowPost(path: string, body: string) {
  const half = Math.floor(body.length / 2);
  let answer: (status: number) => void;
  const answered = new Promise<number>((resolve) => (answer = resolve));
  const request = http.request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
  });
  request.on("response", (response) => {
    response.resume();
    response.on("end", () => answer(response.statusCode ?? 0));
  });
  request.on("error", () => answer(-1));
  request.write(body.slice(0, half));
  return { finish: () => (request.end(body.slice(half)), answered) };
}

test("SIGTERM: the request under way is answered, the email being sent is finished and recorded, then the process exits 0", async () => {
  // Each email takes the mail server 2.5 s to accept, so the stop lands in the middle of one.
  const smtp = await startSmtpServer(0, { delayMs: 2_500 });
  try {
    const shop = await startShop(smtp);
    const first = `first-${Date.now()}@example.com`;
    expect((await subscribe(first)).status).toBe(200);
    await untilSending(first);

    const second = `second-${Date.now()}@example.com`;
    const underWay = slowPost("/functions/v1/send-welcome-email", JSON.stringify({ email: second }));
    await sleep(200);
    const stoppedAt = Date.now();
    shop.child.kill("SIGTERM");
    await sleep(300);
    // No new connections while it stops (the load balancer sends them to another instance).
    expect(await newConnection()).toBe("ECONNREFUSED");
    expect(await underWay.finish()).toBe(200);

    expect(await shop.exited).toBe(0);
    // It waited for the mail server to accept the email in flight…
    expect(Date.now() - stoppedAt).toBeGreaterThan(1_500);
    expect(smtp.to(first)).toHaveLength(1);
    expect(await db.outboxMessage.findFirst({ where: { to: first } })).toMatchObject({ status: "sent", claimedBy: null });
    // …and sent nothing more: the email the last request queued waits, unclaimed, for another instance.
    expect(await db.outboxMessage.findFirst({ where: { to: second } })).toMatchObject({ status: "pending", claimedBy: null });
    expect(smtp.to(second)).toHaveLength(0);
    expect(shop.output()).toMatch(/SIGTERM: finishing the requests and the email under way \(at most 25 s\)[\s\S]*Stopped cleanly in \d+ ms\./);
  } finally {
    await smtp.close();
  }
});

test("SIGTERM waits at most SHUTDOWN_TIMEOUT_MS for an email in flight, then exits 1 and leaves the email to its lease", async () => {
  const smtp = await startSmtpServer(0, { delayMs: 20_000 });
  try {
    // The email the test above left pending would be sent first: an empty outbox.
    await db.outboxMessage.deleteMany();
    const shop = await startShop(smtp, { SHUTDOWN_TIMEOUT_MS: "1500" });
    const to = `stuck-${Date.now()}@example.com`;
    expect((await subscribe(to)).status).toBe(200);
    await untilSending(to);

    const stoppedAt = Date.now();
    shop.child.kill("SIGTERM");
    expect(await shop.exited).toBe(1);
    const took = Date.now() - stoppedAt;
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(5_000);
    expect(shop.output()).toContain("Stopped after 1500 ms with work still under way");
    // Still claimed: when the lease runs out another instance's worker sends it.
    const row = await db.outboxMessage.findFirst({ where: { to } });
    expect(row).toMatchObject({ status: "sending" });
    expect(row?.claimedUntil?.getTime()).toBeGreaterThan(Date.now());
  } finally {
    await smtp.close();
  }
});

test("a production server without SMTP_URL refuses to start and says why", async () => {
  const shop = launch({
    NODE_ENV: "production",
    DEMO: "false",
    MOCKS: "false",
    SESSION_SECRET: "server-process-test-secret-0123456789",
    PUBLIC_URL: ORIGIN,
    STRIPE_SECRET_KEY: "sk_test_never_called",
    STRIPE_WEBHOOK_SECRET: "whsec_never_called",
    SMTP_URL: undefined,
  });
  expect(await shop.exited).toBe(1);
  expect(shop.output()).toBe(
    "Invalid environment:\n  - SMTP_URL: SMTP_URL is required in production: without a mail server every email would be written to var/mail/ on this machine and never sent\n",
  );
});
