import { readFileSync, rmSync } from "node:fs";
import { expect, test } from "./fixtures";
import { scratchDatabase, startShop, type ScratchDatabase } from "../support/shop-process";

/**
 * A production server never loads the demo's stand-ins: started from the
 * build with MOCKS=false and real settings, the modules it has loaded after
 * serving pages (listed by tests/e2e/support/record-modules.mjs) include no
 * MSW and nothing under mocks/. The same server with the stand-ins on does
 * load them, which shows the list would see them.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 20 + Number(process.env.TEST_WORKER_INDEX ?? 0);

test.describe.configure({ mode: "serial" });

// One database each: the production server claims its database as a real
// shop's, where the demo then refuses to run (DatabaseRole, decision 037).
let production: ScratchDatabase;
let demo: ScratchDatabase;
test.beforeAll(async () => {
  production = await scratchDatabase("chillpb_e2e_modules_production");
  demo = await scratchDatabase("chillpb_e2e_modules_demo");
});
test.afterAll(async () => {
  await production?.drop();
  await demo?.drop();
});

/** The modules a server loaded while starting and serving a few pages, once it has stopped. */
async function loadedModules(database: ScratchDatabase, env: Record<string, string>) {
  const list = `var/test-logs/e2e/modules-${PORT}.txt`;
  rmSync(list, { force: true });
  const origin = `http://127.0.0.1:${PORT}`;
  const shop = await startShop(
    PORT,
    { ...process.env, DATABASE_URL: database.url, PUBLIC_URL: origin, OUTBOX_POLL_MS: "0", ...env, MODULE_LIST: list },
    { origin, nodeOptions: ["--import", "./tests/e2e/support/record-modules.mjs"] },
  );
  try {
    for (const path of ["/", "/shop", "/shop/bar-chocolate-pb", "/checkout", "/order-success?session_id=cs_test_x", "/mock-stripe/pay/cs_test_x"]) {
      await (await fetch(`${shop.origin}${path}`)).arrayBuffer();
    }
  } finally {
    await shop.stop();
  }
  expect(await shop.exited).toBe(0);
  return readFileSync(list, "utf8").split("\n").filter(Boolean);
}

const fromMsw = (module: string) => /\/node_modules\/(?:msw|@mswjs)\//.test(module);
const fromMocks = (module: string) => /\/mocks\//.test(module.replace(/\/node_modules\/.*$/, ""));

test("a production server (MOCKS=false) loads neither MSW nor anything under mocks/", async () => {
  const modules = await loadedModules(production, {
    NODE_ENV: "production",
    DEMO: "false",
    MOCKS: "false",
    SESSION_SECRET: "a-production-session-secret-for-the-test",
    STRIPE_SECRET_KEY: "sk_test_never_called",
    STRIPE_WEBHOOK_SECRET: "whsec_never_called",
    SMTP_URL: "smtp://127.0.0.1:2525",
  });
  // The list is real: it holds the build and the server's own modules.
  expect(modules.some((module) => module.endsWith("/build/index.js"))).toBe(true);
  expect(modules.some((module) => /\/node_modules\/express\//.test(module))).toBe(true);
  expect(modules.filter(fromMsw)).toEqual([]);
  expect(modules.filter(fromMocks)).toEqual([]);
});

test("the demo (MOCKS=true) does load MSW, so the list above would have shown it", async () => {
  const modules = await loadedModules(demo, { MOCKS: "true", DEMO: "true" });
  expect(modules.filter(fromMsw).length).toBeGreaterThan(10);
});
