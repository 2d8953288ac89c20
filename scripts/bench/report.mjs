// The bench's figures beside their budgets (decision 033): a table for the
// terminal, the same as markdown for the README, and JSON for history.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { execFileSync } from "node:child_process";

/**
 * @typedef {{ key: string, label: string, value: string, budget: string, met: boolean | null, data: unknown }} Figure
 *   `met`: null for a figure that has no budget; `data` goes to the JSON
 * @typedef {(key: string, label: string, value: string, budget: string, met: boolean | null, data: unknown) => void} RecordFigure
 * @typedef {(text: string) => void} Step says what the bench runs now
 * @typedef {ReturnType<typeof machine>} Machine
 */

/** @param {number} bytes */
export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
/** @param {number} bytes */
export const MB = (bytes) => `${Math.round(bytes / 1_000_000)} MB`;
/** @param {number} value */
export function ms(value) {
  if (!Number.isFinite(value)) return "none answered";
  // autocannon counts whole milliseconds: 0 means under one.
  if (value < 1) return "< 1 ms";
  return `${value.toFixed(value >= 10 ? 0 : 1)} ms`;
}
/** @param {number} milliseconds */
export const seconds = (milliseconds) => `${(milliseconds / 1000).toFixed(2)} s`;
/** @param {number} ratio */
export const percent = (ratio) => `${Math.round(ratio * 100)}%`;
/** @param {number} value */
export const count = (value) => Math.round(value).toLocaleString("en-US");
/** @param {number} value */
export const calls = (value) => `${count(value)} call${value === 1 ? "" : "s"}`;

/**
 * A throughput run as one cell: req/s · p50 · p99 · CPU per request.
 * @param {import("./load.mjs").Throughput} run
 */
export function throughputText(run) {
  const failed = run.failures > 0 ? ` · ${count(run.failures)} failed` : "";
  const cpu = Number.isFinite(run.cpuMsPerRequest) ? ` · CPU ${run.cpuMsPerRequest.toFixed(2)} ms/req` : "";
  return `${count(run.requestsPerSecond)} req/s · p50 ${ms(run.p50Ms)} · p99 ${ms(run.p99Ms)}${cpu}${failed}`;
}

export function machine() {
  const cpus = os.cpus();
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    // not a git checkout
  }
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    commit,
    /** The 1-minute load average when the bench started: above the core count, other work shared the CPUs. */
    loadAverage: Number((os.loadavg()[0] ?? NaN).toFixed(1)),
  };
}

/** @param {Machine} info @param {string} date an ISO date */
export const machineText = (info, date) =>
  `${info.cpu}, ${info.cores} cores, ${Math.round(info.memoryBytes / 2 ** 30)} GB RAM, Node ${info.node}, commit ${info.commit}, ${date.slice(0, 16).replace("T", " ")} UTC, load average ${info.loadAverage} at the start`;

/** @param {boolean | null} met */
const mark = (met) => (met === true ? "yes" : met === false ? "NO" : "–");

/**
 * The figures as a fixed-width table with a "met" column.
 * @param {Figure[]} figures
 */
export function consoleTable(figures) {
  const header = ["figure", "measured", "budget", "met"];
  const rows = [header, ...figures.map((f) => [f.label, f.value, f.budget ?? "", mark(f.met)])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} row */
  const line = (row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  ") + "  ---", ...rows.slice(1).map(line)].join("\n");
}

/** @param {string} text */
const escapeCell = (text) => text.replaceAll("|", "\\|");

/** @param {Figure[]} figures @param {Machine} info @param {string} date @param {string} settings */
export function markdownTable(figures, info, date, settings) {
  const lines = [
    `Measured by \`npm run bench\` on ${machineText(info, date)}; ${settings}.`,
    "",
    "| figure | measured | budget | met |",
    "|---|---|---|---|",
    ...figures.map((f) => `| ${escapeCell(f.label)} | ${escapeCell(f.value)} | ${escapeCell(f.budget ?? "")} | ${mark(f.met)} |`),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * var/bench/<date>.json and latest.json, and latest.md with the markdown table.
 * @param {string} directory @param {string} date @param {unknown} record @param {string} markdown
 */
export function writeResults(directory, date, record, markdown) {
  mkdirSync(directory, { recursive: true });
  const json = `${JSON.stringify(record, null, 2)}\n`;
  const stamped = `${directory}/${date.slice(0, 19).replaceAll(":", "-")}Z.json`;
  writeFileSync(stamped, json);
  writeFileSync(`${directory}/latest.json`, json);
  writeFileSync(`${directory}/latest.md`, markdown);
  return { stamped, latest: `${directory}/latest.json`, markdown: `${directory}/latest.md` };
}
