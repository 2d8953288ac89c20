#!/usr/bin/env node
// `node scripts/bench/start-flags.mjs [--rounds N] [--seconds N]`: what the Node and glibc memory flags
// cost and save (decision 058). The shop runs as production runs it, once per configuration below, and
// each round measures, interleaved across the configurations (each round starting with the next one)
// so a slower minute of a shared machine hits all of them alike: `/shop?cart=open` rendered for a visitor with a cart at 10 connections (the page whose
// cost the flags change: the cached one allocates almost nothing), its CPU per request and
// throughput, then the RSS after the load. Prints medians.
import { parseArgs } from "node:util";
import { BROWSER_HEADERS, hammer, median } from "./load.mjs";
import { MB } from "./report.mjs";
import { benchDatabase, cartCookie, prepareDatabase, productionEnv, rssBytes, startServer } from "./server.mjs";

const { values: options } = parseArgs({ options: { rounds: { type: "string" }, seconds: { type: "string" } } });
const ROUNDS = Number(options.rounds ?? 3);
const SECONDS = Number(options.seconds ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 3200);

/** @type {(import("./server.mjs").StartCommand & { name: string })[]} */
const configurations = [
  { name: "Node's defaults", variables: {}, flags: [] },
  { name: "old generation grows by 50% (--heap-growing-percent=50)", variables: {}, flags: ["--heap-growing-percent=50"] },
  { name: "old generation grows by 20% (--heap-growing-percent=20)", variables: {}, flags: ["--heap-growing-percent=20"] },
  { name: "heap limit only (--max-old-space-size=1024)", variables: {}, flags: ["--max-old-space-size=1024"] },
  {
    name: "decision 033 (MALLOC_ARENA_MAX=2 --max-semi-space-size=1 --max-old-space-size=1024)",
    variables: { MALLOC_ARENA_MAX: "2" },
    flags: ["--max-semi-space-size=1", "--max-old-space-size=1024"],
  },
];

const database = await benchDatabase("chillpb_bench_flags", { fresh: true });
const env = productionEnv({ port: PORT, databaseUrl: database.url });
prepareDatabase(env);
/** Each configuration's figures, one per round. @type {{ name: string, cpu: number[], rps: number[], rss: number[] }[]} */
const results = configurations.map(({ name }) => ({ name, cpu: [], rps: [], rss: [] }));
for (let round = 1; round <= ROUNDS; round++) {
  // Each round starts with the next configuration, so none is always first (or last) after a pause.
  for (let turn = 0; turn < configurations.length; turn++) {
    const index = (round - 1 + turn) % configurations.length;
    const configuration = configurations[index];
    const result = results[index];
    if (!configuration || !result) throw new Error(`no configuration ${index}`);
    const shop = await startServer(env, configuration);
    const headers = { ...BROWSER_HEADERS, cookie: await cartCookie(env.PUBLIC_URL) };
    const url = `${env.PUBLIC_URL}/shop?cart=open`;
    await hammer({ url, connections: 10, seconds: 2, headers });
    const run = await hammer({ url, connections: 10, seconds: SECONDS, pid: shop.pid, headers });
    if (run.failures > 0) throw new Error(`${configuration.name}: ${run.failures} requests failed`);
    const rss = rssBytes(shop.pid);
    result.cpu.push(run.cpuMsPerRequest);
    result.rps.push(run.requestsPerSecond);
    result.rss.push(rss);
    await shop.stop();
    console.log(
      `round ${round}: ${configuration.name}: ${run.cpuMsPerRequest.toFixed(2)} ms CPU/request, ${Math.round(run.requestsPerSecond)} req/s, RSS ${MB(rss)}`,
    );
  }
}
await database.release();
console.log(`\nMedians of ${ROUNDS} round(s) of ${SECONDS} s, /shop rendered for a cart, 10 connections:`);
for (const { name, cpu, rps, rss } of results) {
  console.log(`  ${name}: ${median(cpu).toFixed(2)} ms CPU/request · ${Math.round(median(rps))} req/s · RSS after ${MB(median(rss))}`);
}
