import { networkInterfaces } from "node:os";
import http from "node:http";
import net from "node:net";
import { expect, test } from "./fixtures";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * The HTTP edge in a server process of its own (server.mjs, the built shop):
 * requests it does not serve, addresses it cannot read, where it listens
 * behind a proxy, and the page cache under unique URLs. Each request is one
 * log line and never a stack trace.
 */

// Ports after the suite's own server's, one pair per worker.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 10 + 2 * Number(process.env.TEST_WORKER_INDEX ?? 0);

test.describe.configure({ mode: "serial" });

let database: ScratchDatabase;
let shop: ShopProcess;

/** The demo with its stand-ins, on this file's database, addressed as 127.0.0.1. */
function startEdgeShop(port: number, env: Record<string, string | undefined> = {}) {
  const origin = `http://127.0.0.1:${port}`;
  return startShop(port, { ...process.env, DATABASE_URL: database.url, MOCKS: "true", PUBLIC_URL: origin, OUTBOX_POLL_MS: "0", ...env }, { origin });
}

test.beforeAll(async () => {
  database = await scratchDatabase("chillpb_e2e_edge");
  shop = await startEdgeShop(PORT);
});

test.afterAll(async () => {
  await shop?.stop();
  await database?.drop();
});

/** A stack frame as Node prints one: "    at fn (file:line:col)". */
const STACK_FRAME = /^\s+at .+[(:]\d+/m;

test("a request the shop does not serve is answered 405 with Allow, or 404, in one log line and without a stack trace", async () => {
  const cases: { method: string; path: string; status: number; allow: string | null }[] = [
    { method: "OPTIONS", path: "/", status: 405, allow: "GET, HEAD" },
    { method: "OPTIONS", path: "/functions/v1/send-welcome-email", status: 405, allow: "POST" },
    { method: "POST", path: "/", status: 405, allow: "GET, HEAD" },
    { method: "POST", path: "/shop", status: 405, allow: "GET, HEAD" },
    { method: "POST", path: "/privacy", status: 405, allow: "GET, HEAD" },
    { method: "PUT", path: "/cart", status: 405, allow: "GET, HEAD, POST" },
    { method: "DELETE", path: "/?index", status: 405, allow: "GET, HEAD, POST" },
    { method: "GET", path: "/functions/v1/get-orders", status: 405, allow: "POST" },
    { method: "GET", path: "/webhooks/stripe", status: 405, allow: "POST" },
    { method: "PATCH", path: "/shop", status: 405, allow: "GET, HEAD" },
    { method: "POST", path: "/no/such/page", status: 404, allow: null },
    { method: "GET", path: "/%E0%A4%A", status: 404, allow: null },
    { method: "GET", path: "/shop/%00", status: 404, allow: null },
    { method: "GET", path: "/unsubscribe?token=%00", status: 400, allow: null },
  ];
  const ids: string[] = [];
  for (const { method, path, status, allow } of cases) {
    const answer = await fetch(`${shop.origin}${path}`, { method, headers: { Origin: shop.origin, Accept: "text/html" } });
    expect(answer.status, `${method} ${path}`).toBe(status);
    expect(answer.headers.get("Allow"), `${method} ${path}`).toBe(allow);
    expect(await answer.text()).not.toMatch(STACK_FRAME);
    ids.push(answer.headers.get("X-Request-Id") ?? "");
  }
  await expect.poll(() => ids.every((id) => shop.logLines().some((line) => line.requestId === id))).toBe(true);
  for (const id of ids) {
    const lines = shop.logLines().filter((line) => line.requestId === id);
    expect(lines, id).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", msg: "request" });
  }
  expect(shop.output()).not.toMatch(STACK_FRAME);
  expect(JSON.stringify(shop.logLines())).not.toMatch(/\\n\s+at /);
});

test("a request's log line has its facts, the instance and the time, and no email address typed into the path", async () => {
  const answer = await fetch(`${shop.origin}/shop/maya.rivera@example.com?cart=open&email=maya.rivera@example.com`, { headers: { Accept: "text/html" } });
  expect(answer.status).toBe(404);
  const id = answer.headers.get("X-Request-Id") ?? "";
  const requestLine = () => shop.logLines().find((line) => line.requestId === id && line.msg === "request");
  await expect.poll(requestLine).toBeTruthy();
  const line = requestLine();
  expect(line).toMatchObject({
    level: "info",
    msg: "request",
    method: "GET",
    // The mask takes the address with what runs into it; the query keeps the names of parameters, not their values.
    path: expect.stringMatching(/^\/?[^@]*\[email\]\?cart=open&email$/),
    status: 404,
    clientAddress: "127.0.0.1",
    instance: expect.stringMatching(/:\d+$/),
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  // Nothing the request logged holds the address.
  expect(JSON.stringify(shop.logLines().filter((logged) => logged.requestId === id))).not.toContain("maya");
});

test("a path that starts with two slashes names no page: 404 from the edge, never Remix's 500 for an invalid URL", async () => {
  const paths = ["//", "///", "//?a=1", "//@", "//%5B", "//example.com", "//shop", "/\\", "/\\example.com", "//.."];
  for (const pathname of paths) {
    const status = await new Promise<number>((resolve, reject) => {
      // As sent: fetch() would tidy the path first.
      const request = http.get({ host: "127.0.0.1", port: PORT, path: pathname, headers: { Accept: "text/html" } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
    });
    expect(status, pathname).toBe(404);
  }
  expect(shop.logLines().filter((line) => line.level === "error")).toEqual([]);
});

test("a cached page stays cached while 300 unique URLs are asked for", async () => {
  await fetch(`${shop.origin}/`);
  expect((await fetch(`${shop.origin}/`)).headers.get("X-Page-Cache")).toBe("hit");
  for (let index = 0; index < 300; index++) {
    const answer = await fetch(`${shop.origin}/?utm_campaign=${index}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("X-Page-Cache")).toBe("bypass");
    await answer.arrayBuffer();
  }
  expect((await fetch(`${shop.origin}/`)).headers.get("X-Page-Cache")).toBe("hit");
  expect((await fetch(`${shop.origin}/shop?cart=open&category=bars`)).headers.get("X-Page-Cache")).toBe("miss");
  expect((await fetch(`${shop.origin}/shop?category=bars&cart=open`)).headers.get("X-Page-Cache")).toBe("hit");
});

/** Whether a connection to `port` on this machine's first address other than the loopback is accepted (null: it has none). */
async function reachableFromTheNetwork(port: number) {
  const other = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;
  if (!other) return null;
  return new Promise<string>((resolve) => {
    const socket = net.connect(port, other);
    socket.on("connect", () => (socket.destroy(), resolve("accepted")));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

test("the demo, and a shop behind a proxy counted in hops, listen on the loopback only, unless HOST says otherwise", async () => {
  // The demo: nothing on the local network reaches it (decision 080).
  const ready = shop.logLines().find((line) => /^Chill PB .* is ready at /.test(String(line.msg)));
  expect(ready).toMatchObject({ listening: { host: "127.0.0.1", port: PORT } });
  const demoOutcome = await reachableFromTheNetwork(PORT);
  if (demoOutcome !== null) expect(demoOutcome).toBe("ECONNREFUSED");
  const behindProxy = await startEdgeShop(PORT + 1, { TRUST_PROXY: "1" });
  try {
    const line = behindProxy.logLines().find((entry) => /^Chill PB .* is ready at /.test(String(entry.msg)));
    expect(line).toMatchObject({ listening: { host: "127.0.0.1", port: PORT + 1 } });
    const outcome = await reachableFromTheNetwork(PORT + 1);
    if (outcome !== null) expect(outcome).toBe("ECONNREFUSED");
  } finally {
    await behindProxy.stop();
  }
});

test("a proxy counted in hops with the port open to the network refuses to start, and says to list the proxies' addresses", async () => {
  const refused = await startShop(
    PORT + 1,
    { ...process.env, DATABASE_URL: database.url, MOCKS: "true", TRUST_PROXY: "1", HOST: "0.0.0.0" },
    { waitUntilReady: false },
  );
  expect(await refused.exited).toBe(1);
  expect(refused.output()).toContain("TRUST_PROXY: a number of hops (1) is only safe when the shop listens on the loopback, and HOST is 0.0.0.0");
  expect(refused.output()).toContain("list the proxies' addresses instead");
  // Listed by address, the same port open to the network is fine: only those proxies' X-Forwarded-For counts.
  const listed = await startEdgeShop(PORT + 1, { TRUST_PROXY: "127.0.0.1", HOST: "0.0.0.0" });
  try {
    const line = listed.logLines().find((entry) => /^Chill PB .* is ready at /.test(String(entry.msg)));
    expect(line).toMatchObject({ listening: { host: "0.0.0.0", port: PORT + 1 } });
  } finally {
    await listed.stop();
  }
});

test("a connection kept alive between requests stays open for a proxy's idle minute, not Node's 5 s", async () => {
  // A proxy or load balancer that pools its connections to the shop (nginx's
  // `keepalive`, a cloud balancer) reuses one after up to 60 s idle. A server
  // that closes it first races the next request, which then fails with
  // ECONNRESET or a 502 (seen in CI with Playwright's API client after 5 s).
  const socket = net.connect(PORT, "127.0.0.1");
  let received = "";
  let closed = false;
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("close", () => (closed = true));
  socket.on("error", () => undefined);
  const answered = async (count: number) => {
    await expect.poll(() => received.split("HTTP/1.1 200 OK").length - 1).toBe(count);
  };
  const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n\r\n`;
  socket.write(request);
  await answered(1);
  // The server says how long it will wait, so a client can retire the connection first.
  expect(received).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(closed).toBe(false);
  socket.write(request);
  await answered(2);
  socket.destroy();
});
