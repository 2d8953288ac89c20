// Lighthouse 12 with its defaults (mobile form factor, simulated slow 4G and
// a 4x slower CPU), in the system Chromium, headless.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { median } from "./load.mjs";

/**
 * @typedef {ReturnType<typeof summarise>} Summary
 * @typedef {Summary & { runs: number, performanceScores: number[], lcpRunsMs: number[] }} Audit
 *   the median run's summary, with every run's performance score and LCP
 */

const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/**
 * Audits each URL `runs` times and keeps, per URL, the run with the median
 * performance score (Lighthouse's own advice for a noisy machine).
 *
 * @param {string[]} urls @param {{ runs: number }} options
 */
export async function audit(urls, { runs }) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ["--headless=new", "--no-sandbox"] });
  try {
    /** @type {Record<string, Audit>} */
    const results = {};
    for (const url of urls) {
      /** @type {Summary[]} */
      const reports = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        reports.push(summarise(result.lhr));
      }
      const middle = median(reports.map((report) => report.performance));
      // Object.is: a failed run's score is NaN, which === never finds (the run and its runtimeError are kept).
      const kept = reports.find((report) => Object.is(report.performance, middle));
      if (!kept) throw new Error(`no Lighthouse run for ${url}`);
      results[url] = { ...kept, runs, performanceScores: reports.map((r) => r.performance), lcpRunsMs: reports.map((r) => r.lcpMs) };
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

/** @param {import("lighthouse").Result} lhr */
function summarise(lhr) {
  /** @param {string} category */
  const score = (category) => Math.round((lhr.categories[category]?.score ?? NaN) * 100);
  /** @param {string} id */
  const numeric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const details = lhr.audits["network-requests"]?.details;
  const requests = details?.type === "table" ? details.items : [];
  /** @param {string} type */
  const bytesOf = (type) =>
    requests.filter((item) => item.resourceType === type).reduce((sum, item) => sum + (typeof item.transferSize === "number" ? item.transferSize : 0), 0);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: numeric("largest-contentful-paint"),
    fcpMs: numeric("first-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    scriptBytes: bytesOf("Script"),
    fontBytes: bytesOf("Font"),
    totalBytes: numeric("total-byte-weight"),
    runtimeError: lhr.runtimeError?.message,
    failedAudits: Object.values(lhr.audits)
      .filter((item) => lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === item.id) && item.score === 0)
      .map((item) => item.id),
  };
}
