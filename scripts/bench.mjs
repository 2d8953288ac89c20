#!/usr/bin/env node
// `npm run bench`: the storefront's performance report. Starts the built shop
// on its own port and database, loads its pages with a bounded number of
// requests from this machine only, and prints latency, throughput, memory and
// the JavaScript a visitor downloads. Nothing here is a pass/fail test.
import { spawn, execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";

const port = Number(process.env.BENCH_PORT ?? 3200);
const origin = `http://127.0.0.1:${port}`;
const env = { ...process.env, PORT: String(port), DATABASE_URL: "file:./var/bench.db" };

execFileSync("node", ["scripts/prepare.mjs"], { env, stdio: "inherit" });
const server = spawn("node", ["server.mjs"], { env, stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => server.kill());

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server did not start");
}

async function load(name, makeRequest, { requests = 2000, concurrency = 16 } = {}) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        const response = await makeRequest();
        await response.arrayBuffer();
        if (!response.ok && response.status !== 302) failures++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  console.log(
    `${name.padEnd(28)} ${String(Math.round(requests / seconds)).padStart(6)} req/s   p50 ${pct(0.5)} ms   p95 ${pct(0.95)} ms   p99 ${pct(0.99)} ms   failures ${failures}`,
  );
}

async function javascriptBytes(path) {
  const html = await (await fetch(`${origin}${path}`)).text();
  const sources = [...html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((match) => match[1]);
  let raw = 0;
  let gzipped = 0;
  for (const source of new Set(sources)) {
    const body = Buffer.from(await (await fetch(`${origin}${source}`)).arrayBuffer());
    raw += body.length;
    gzipped += gzipSync(body).length;
  }
  console.log(`${`JS for ${path}`.padEnd(28)} ${(raw / 1024).toFixed(1)} kB raw, ${(gzipped / 1024).toFixed(1)} kB gzipped (${new Set(sources).size} files)`);
}

await waitForServer();
const html = { headers: { Accept: "text/html" } };
console.log(`\nChill PB benchmark against ${origin} (${new Date().toISOString()})\n`);
await load("GET / (landing)", () => fetch(`${origin}/`, html));
await load("GET /shop", () => fetch(`${origin}/shop`, html));
await load("GET /shop?category=bites", () => fetch(`${origin}/shop?category=bites`, html));
await load("POST /cart add (fetcher)", () =>
  fetch(`${origin}/cart`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=add&productId=bar-banana-pb&quantity=1",
  }),
);
console.log("");
await javascriptBytes("/");
await javascriptBytes("/shop");
const rss = execFileSync("ps", ["-o", "rss=", "-p", String(server.pid)]).toString().trim();
console.log(`${"server memory (RSS)".padEnd(28)} ${(Number(rss) / 1024).toFixed(0)} MB after the run\n`);
server.kill();
process.exit(0);
