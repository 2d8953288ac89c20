#!/usr/bin/env node
// `npm run bench`: every figure the performance budgets name (decision 033), in one run, beside its
// budget. The built shop runs as production runs it, on 127.0.0.1, twice:
// on a fresh catalogue-only database for the pages, and on a database of
// 100,000 paid orders for the operator's functions. Every load is bounded in
// time and count (about ten minutes on 2 cores). Prints a table, writes
// var/bench/<date>.json, var/bench/latest.json and var/bench/latest.md.
//
//   npm run bench                      the full run
//   npm run bench -- --markdown        also print the markdown table (as in the README)
//   npm run bench -- --quick           1 round of 3 s, 1 Lighthouse run: to try the bench itself
//   options: --rounds N --seconds N --lighthouse-runs N --no-lighthouse --build --fresh-db
//            --soak-minutes N (default 10, 1 with --quick, 0 skips the memory soak)
//            --operator-orders 100000,1000000 (the operator figures' sizes; default 100000,1000000)
//            --only pages,orders,operator,soak (default all four)
//            --order-seconds N (default 20, 5 with --quick): the order path's measured load
//   BENCH_PORT (default 3200): the pages' server; BENCH_PORT+1: the operator's.
import os from "node:os";
import { parseArgs } from "node:util";
import { benchOperator } from "./bench/operator.mjs";
import { benchOrders } from "./bench/orders.mjs";
import { benchPages } from "./bench/pages.mjs";
import { benchSoak } from "./bench/soak.mjs";
import { consoleTable, machine, machineText, markdownTable, writeResults } from "./bench/report.mjs";
import { quietly } from "./bench/server.mjs";

const { values: options } = parseArgs({
  options: {
    markdown: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    seconds: { type: "string" },
    "lighthouse-runs": { type: "string" },
    "no-lighthouse": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    "fresh-db": { type: "boolean", default: false },
    "soak-minutes": { type: "string" },
    "operator-orders": { type: "string" },
    only: { type: "string" },
    "order-seconds": { type: "string" },
  },
});
const ROUNDS = Number(options.rounds ?? (options.quick ? 1 : 3));
const SECONDS = Number(options.seconds ?? (options.quick ? 3 : 8));
const LIGHTHOUSE_RUNS = Number(options["lighthouse-runs"] ?? (options.quick ? 1 : 5));
const SAMPLES = options.quick ? 30 : 100;
const SOAK_MINUTES = Number(options["soak-minutes"] ?? (options.quick ? 1 : 10));
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const OPERATOR_SIZES = (options["operator-orders"] ?? "100000,1000000").split(",").map(Number);
const ONLY = new Set((options.only ?? "pages,orders,operator,soak").split(","));

const startedAt = new Date();
const date = startedAt.toISOString();
const info = machine();
/** @type {import("./bench/report.mjs").Figure[]} */
const figures = [];
/** @type {import("./bench/report.mjs").Step} */
const step = (text) => {
  const elapsed = Math.round((Date.now() - startedAt.getTime()) / 1000);
  console.log(`${`${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, "0")}`.padStart(5)}  ${text}`);
};

// Interrupted: exit handlers stop the servers and remove the static copy.
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

/** Records a figure: what the table shows, the budget, whether it is met; `data` goes to the JSON. @type {import("./bench/report.mjs").RecordFigure} */
function figure(key, label, value, budget, met, data) {
  figures.push({ key, label, value, budget, met, data });
}

console.log(`Chill PB bench, ${machineText(info, date)}`);
console.log(
  `${ROUNDS} round(s) of ${SECONDS} s per throughput figure (medians), ${LIGHTHOUSE_RUNS} Lighthouse run(s) per page, ${SAMPLES} calls per operator figure\n`,
);

// --- The build -----------------------------------------------------------------
if (options.build) {
  step("npm run build");
  quietly("npm", ["run", "build"], process.env);
}

// --- The pages, then the operator's functions on 100,000 orders ---------------------
const shared = { figure, step, port: PORT, rounds: ROUNDS, roundSeconds: SECONDS };
if (ONLY.has("pages")) await benchPages({ ...shared, lighthouseRuns: options["no-lighthouse"] ? 0 : LIGHTHOUSE_RUNS, build: options.build });
if (ONLY.has("orders")) await benchOrders({ figure, step, port: PORT, seconds: Number(options["order-seconds"] ?? (options.quick ? 5 : 20)) });
if (ONLY.has("operator")) {
  for (const paidOrders of OPERATOR_SIZES) await benchOperator({ ...shared, samples: SAMPLES, freshDb: options["fresh-db"], paidOrders });
}
if (ONLY.has("soak") && SOAK_MINUTES > 0) await benchSoak({ figure, step, port: PORT, minutes: SOAK_MINUTES });

// --- The report -----------------------------------------------------------------------
const minutes = (Date.now() - startedAt.getTime()) / 60_000;
const loadAtEnd = (os.loadavg()[0] ?? NaN).toFixed(1);
const settings = `${ROUNDS} round(s) of ${SECONDS} s per throughput figure, medians; Lighthouse ${options["no-lighthouse"] ? "skipped" : `median of ${LIGHTHOUSE_RUNS} run(s)`}; whole run ${minutes.toFixed(1)} min, load average ${loadAtEnd} at the end`;
const markdown = markdownTable(figures, info, date, settings);
const budgets = figures.filter((f) => f.met !== null);
const record = {
  date,
  machine: info,
  settings: { rounds: ROUNDS, seconds: SECONDS, lighthouseRuns: options["no-lighthouse"] ? 0 : LIGHTHOUSE_RUNS, samples: SAMPLES, port: PORT },
  minutes,
  budgetsMet: budgets.filter((f) => f.met).length,
  budgets: budgets.length,
  figures,
};
const written = writeResults("var/bench", date, record, markdown);

console.log(`\n${consoleTable(figures)}\n`);
console.log(`${record.budgetsMet} of ${record.budgets} budgets met; ${settings}.`);
console.log(`Wrote ${written.stamped}, ${written.latest} and ${written.markdown}.`);
if (options.markdown) console.log(`\n${markdown}`);
process.exit(0);
