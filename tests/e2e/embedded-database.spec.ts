import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { withClient } from "../../scripts/scratch-postgres.mjs";
import { startShop } from "../support/shop-process";

/**
 * The shop's default database: with no DATABASE_URL, `npm start` runs an
 * embedded PostgreSQL of its own (decision 035), durable as in production.
 * Killed with SIGKILL in the middle of taking orders, the shop leaves that
 * server running; the next start finds it, serves, and has every order it
 * acknowledged. A clean stop stops the server too.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 480 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const DIR = `var/e2e-embedded-${PORT}`;

function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_DATABASE_DIR: DIR, MOCKS: "true", RATE_LIMIT_PER_MINUTE: "100000", OUTBOX_POLL_MS: "0" };
  delete env.DATABASE_URL;
  return env;
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const postmasterPid = () => Number(readFileSync(path.join(DIR, "data", "postmaster.pid"), "utf8").split("\n")[0]);

function order(email: string) {
  const shipping = { firstName: "Kim", lastName: "Lee", email, address: "11600 Wilshire Blvd", city: "Los Angeles", state: "CA", zipCode: "90025" };
  return { items: [{ product: { id: "bites-variety" }, quantity: 3 }], email, shipping, discountCode: null };
}

test.afterAll(() => rmSync(DIR, { recursive: true, force: true }));

test("SIGKILL while orders are placed: the next start uses the database server left running, and every acknowledged order is in it", async () => {
  test.setTimeout(180_000);
  rmSync(DIR, { recursive: true, force: true });
  let shop = await startShop(PORT, environment());
  const database = postmasterPid();

  const acknowledged: string[] = [];
  let killed = false;
  const client = async () => {
    while (!killed) {
      const response = await fetch(`${shop.origin}/functions/v1/simple-checkout`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(order(`kill-${randomUUID().slice(0, 8)}@example.com`)),
      }).catch(() => null);
      // An answer cut off by the kill was never acknowledged.
      const body = response?.ok ? ((await response.json().catch(() => null)) as { orderId?: string } | null) : null;
      if (body?.orderId) acknowledged.push(body.orderId);
    }
  };
  const clients = Array.from({ length: 4 }, client);
  await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(20);
  shop.child.kill("SIGKILL");
  killed = true;
  await Promise.all(clients);
  await shop.stop();
  expect(isAlive(database)).toBe(true);

  shop = await startShop(PORT, environment());
  expect(postmasterPid()).toBe(database);
  const { port, password } = JSON.parse(readFileSync(path.join(DIR, "connection.json"), "utf8")) as { port: number; password: string };
  const stored = await withClient(`postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/chillpb`, (db) =>
    db.query<{ id: string }>(`SELECT id FROM "Order" WHERE id = ANY($1)`, [acknowledged]),
  );
  expect(stored.rows.map((row) => row.id).sort()).toEqual([...acknowledged].sort());
  expect((await fetch(`${shop.origin}/shop`)).status).toBe(200);

  // A clean stop lets go of the database server: nothing is left running.
  await shop.stop("SIGTERM");
  // pg_ctl waits until the server has removed its pid file; the process itself ends a moment later.
  await expect.poll(() => isAlive(database)).toBe(false);
});
