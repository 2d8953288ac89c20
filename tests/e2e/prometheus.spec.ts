import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * Debian's Prometheus server (package `prometheus`, which .ci/run installs)
 * against a running shop, with the shipped rules (docs/monitoring/alerts.yml)
 * loaded and a 1 s scrape: it scrapes the shop from the loopback, which
 * METRICS_ALLOW lets in by default, and an order placed here shows in the
 * counter it scraped (decision 049).
 */

const PROMETHEUS = "/usr/bin/prometheus";
const PORT = Number(process.env.E2E_PORT ?? 3100) + 430 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const PROMETHEUS_PORT = Number(process.env.E2E_PORT ?? 3100) + 440 + Number(process.env.TEST_WORKER_INDEX ?? 0);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PROMETHEUS_ORIGIN = `http://127.0.0.1:${PROMETHEUS_PORT}`;

test.skip(!existsSync(PROMETHEUS), `needs Debian's prometheus package (${PROMETHEUS})`);

let database: ScratchDatabase;
let shop: ShopProcess | undefined;
let prometheus: ChildProcess | undefined;
let prometheusOutput = "";
let folder: string;

test.beforeAll(async () => {
  database = await scratchDatabase("chillpb_e2e_prometheus");
  folder = mkdtempSync(path.join(tmpdir(), "chillpb-prometheus-"));
});

test.afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once("exit", resolve));
    prometheus.kill("SIGTERM");
    await exited;
  }
  await shop?.stop();
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** Prometheus's configuration: the shipped rules, the shop scraped every second. */
function writeConfig() {
  const file = path.join(folder, "prometheus.yml");
  writeFileSync(
    file,
    [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "rule_files:",
      `  - ${JSON.stringify(path.resolve("docs/monitoring/alerts.yml"))}`,
      "scrape_configs:",
      "  - job_name: chillpb",
      "    static_configs:",
      `      - targets: ["127.0.0.1:${PORT}"]`,
      "",
    ].join("\n"),
  );
  return file;
}

type QueryAnswer = { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };

/** An instant query's one value, or null when Prometheus has no such series yet (or is not up yet). */
async function valueOf(query: string): Promise<number | null> {
  const response = await fetch(`${PROMETHEUS_ORIGIN}/api/v1/query?query=${encodeURIComponent(query)}`).catch(() => null);
  if (!response?.ok) return null;
  const answer = (await response.json()) as QueryAnswer;
  const first = answer.data.result[0];
  return first ? Number(first.value[1]) : null;
}

test("Prometheus scrapes the shop (up == 1) with the shipped rules loaded, and an order placed shows in the scraped counter", async () => {
  test.setTimeout(120_000);
  shop = await startShop(PORT, { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url, PUBLIC_URL: ORIGIN }, { origin: ORIGIN });

  prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${writeConfig()}`, `--storage.tsdb.path=${path.join(folder, "data")}`, `--web.listen-address=127.0.0.1:${PROMETHEUS_PORT}`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  for (const stream of [prometheus.stdout!, prometheus.stderr!]) stream.on("data", (chunk: Buffer) => (prometheusOutput += chunk.toString()));

  await expect
    .poll(() => valueOf('up{job="chillpb"}'), { timeout: 60_000 })
    .toBe(1)
    .catch((error: unknown) => {
      throw new Error(`Prometheus never scraped the shop: ${String(error)}\n${prometheusOutput.slice(-2_000)}`);
    });

  const rules = (await (await fetch(`${PROMETHEUS_ORIGIN}/api/v1/rules`)).json()) as {
    data: { groups: { name: string; rules: { name: string; health: string }[] }[] };
  };
  const loaded = rules.data.groups.flatMap((group) => group.rules);
  expect(loaded.map((rule) => rule.name)).toEqual(
    expect.arrayContaining(["ChillPBDeadEmails", "ChillPBEmailBacklogOld", "ChillPBWebhookFailures", "ChillPBServerErrors", "ChillPBNoPaidOrder"]),
  );

  // A fresh process has placed nothing; the scraped counter is there at 0.
  await expect.poll(() => valueOf('shop_orders_placed_total{job="chillpb"}'), { timeout: 10_000 }).toBe(0);

  const email = `prometheus-${Date.now()}@example.com`;
  const shipping = { firstName: "Kim", lastName: "Lee", email, address: "11600 Wilshire Blvd", city: "Los Angeles", state: "CA", zipCode: "90025" };
  const placed = await fetch(`${ORIGIN}/functions/v1/simple-checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ product: { id: "bites-variety" }, quantity: 3 }], email, shipping, discountCode: null }),
  });
  expect(placed.status, await placed.clone().text()).toBe(200);
  expect(await placed.json()).toMatchObject({ orderId: expect.any(String) });

  await expect.poll(() => valueOf('shop_orders_placed_total{job="chillpb"}'), { timeout: 15_000 }).toBe(1);
  // The request itself is in the scraped request counter, under its route pattern.
  await expect
    .poll(() => valueOf('sum(shop_http_requests_total{job="chillpb", route="/functions/v1/simple-checkout", status="2xx"})'), { timeout: 15_000 })
    .toBe(1);
  // Every rule evaluates without error against what was scraped.
  const evaluated = (await (await fetch(`${PROMETHEUS_ORIGIN}/api/v1/rules`)).json()) as typeof rules;
  expect(evaluated.data.groups.flatMap((group) => group.rules).filter((rule) => rule.health === "err")).toEqual([]);
});
