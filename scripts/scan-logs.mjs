// Scans the shop's log lines for customer data (decision 047): email addresses
// other than the shop's own, phone numbers, street addresses, and the test
// customers' names. The test suites write every server log line to files
// under var/test-logs/ (LOG_FILE) and run this over them when they end: one
// hit fails the run. A finding is reported by file, line and kind, never by
// the text found (which would put the customer data in the CI log instead).
//
//   node scripts/scan-logs.mjs [file-or-folder …]     (default: var/test-logs)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Addresses of the shop itself and its operators (test and demo domains), which a log line may name. */
const SHOP_DOMAINS = /@(?:chillpb\.example|chillpb\.test|cluster\.test|demo\.chillpb\.example)$/i;

/** The test customers' names: every firstName/lastName literal in the test helpers. */
function testCustomerNames() {
  /** @type {Set<string>} */
  const names = new Set();
  for (const file of ["tests/utils.ts", "tests/e2e/checkout-helpers.ts", "tests/integration/order-page.test.ts"]) {
    if (!existsSync(file)) continue;
    for (const match of readFileSync(file, "utf8").matchAll(/(?:firstName|lastName):\s*"([A-Z][A-Za-z'-]{2,})"/g)) if (match[1]) names.add(match[1]);
  }
  return [...names];
}

/**
 * @param {string[]} [names] the test customers' names
 * @returns {{ kind: string, test: (line: string) => boolean }[]}
 */
export function detectors(names = testCustomerNames()) {
  const nameWords = names.length > 0 ? new RegExp(`\\b(?:${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`) : null;
  return [
    {
      kind: "email address",
      test: (line) => [...line.matchAll(/[^\s"'<>@\\:]+@[^\s"'<>@\\]+\.[A-Za-z]{2,}/g)].some(([address]) => !SHOP_DOMAINS.test(address)),
    },
    { kind: "phone number", test: (line) => /(?:\(\d{3}\)\s?|\b\d{3}[-. ])\d{3}[-.]\d{4}\b/.test(line) },
    {
      kind: "street address",
      test: (line) => /\b\d{1,5} (?:[A-Z][A-Za-z]+ ){1,3}(?:St|Street|Ave|Avenue|Blvd|Boulevard|Dr|Drive|Rd|Road|Way|Ln|Lane|Pl|Place|Ct|Court)\b/.test(line),
    },
    ...(nameWords ? [{ kind: "a test customer's name", test: (/** @type {string} */ line) => nameWords.test(line) }] : []),
  ];
}

/** @param {string} target @returns {string[]} */
function logFiles(target) {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  // The JSON log lines (LOG_FILE); other files there (a spec's module list) are not logs.
  return readdirSync(target).flatMap((entry) => {
    const full = path.join(target, entry);
    return statSync(full).isDirectory() ? logFiles(full) : entry.endsWith(".jsonl") ? [full] : [];
  });
}

/**
 * @param {string[]} targets
 * @returns {{ files: number, lines: number, findings: { file: string, line: number, kind: string }[] }}
 */
export function scanLogs(targets) {
  const checks = detectors();
  /** @type {{ file: string, line: number, kind: string }[]} */
  const findings = [];
  let files = 0;
  let lines = 0;
  for (const file of targets.flatMap(logFiles)) {
    files++;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((text, index) => {
        if (text === "") return;
        lines++;
        for (const check of checks) if (check.test(text)) findings.push({ file, line: index + 1, kind: check.kind });
      });
  }
  return { files, lines, findings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : ["var/test-logs"];
  const { files, lines, findings } = scanLogs(targets);
  for (const { file, line, kind } of findings.slice(0, 50)) console.log(`${file}:${line}: ${kind}`);
  console.log(`Scanned ${lines} log lines in ${files} files: ${findings.length === 0 ? "no customer data" : `${findings.length} with customer data`}.`);
  process.exit(findings.length === 0 ? 0 : 1);
}
