import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
// The project's axe-core (newer than the one @axe-core/playwright bundles), with its
// experimental rules for these criteria switched on too (e.g. label-content-name-mismatch
// for 2.5.3, experimental in the bundled copy).
const experimentalRules = axe
  .getRules(tags)
  .filter((rule) => rule.tags.includes("experimental"))
  .map((rule) => rule.ruleId);
const axeOptions = {
  runOnly: { type: "tag" as const, values: tags },
  // Only violations are read: the passing nodes (every element of the admin's tables) need not cross into the test.
  resultTypes: ["violations" as const],
  rules: Object.fromEntries(["label-content-name-mismatch", ...experimentalRules].map((id) => [id, { enabled: true }])),
};

/**
 * axe's scan of a page as it rests, for every spec that checks one (a11y.spec.ts
 * goes through every page; a feature's spec scans its own states): WCAG
 * 2.0/2.1 A and AA and 2.2 AA. No rule is disabled: a violation fails the test
 * with what and where.
 */
export async function expectNoViolations(page: Page, state: string) {
  // The page as it rests: a toast still fading in has a text colour blended with its background (a CI run measured
  // 4.12:1 mid-animation for a toast that is 6:1 at rest). With reduced motion the shop's animations take no time.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
  );
  // Legacy mode runs axe in the page itself. The default opens a second, blank page to gather the frames' results,
  // which cost 3.5 of the 5.5 s a scan of the admin's orders took here; these pages have no frames to gather.
  const { violations } = await new AxeBuilder({ page, axeSource: axe.source }).options(axeOptions).setLegacyMode(true).analyze();
  const found = violations.map((violation) => ({
    rule: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ")}`),
  }));
  expect(found, `axe violations on ${state}`).toEqual([]);
}
