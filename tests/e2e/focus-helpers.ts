import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Where keyboard focus is: something other than the page itself, with its
 * whole box on the screen, and not covered by anything (a sticky header, the
 * popup): the element at the middle of its box and just inside its top edge
 * is the focused element or inside it (WCAG 2.4.7, 2.4.11).
 */
export async function expectFocusInView(page: Page) {
  // Polled: the page may still be scrolling smoothly to what received focus.
  await expect.poll(() => focusProblem(page), { timeout: 3_000 }).toBeNull();
}

function focusProblem(page: Page) {
  return page
    .evaluate(() => {
      const element = document.activeElement;
      if (!(element instanceof HTMLElement) || element === document.body) return { problem: "nothing has focus" };
      const box = element.getBoundingClientRect();
      const what = `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`;
      if (box.width === 0 || box.height === 0) return { problem: `${what} has no size` };
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight + 1 || box.right > window.innerWidth + 1) {
        return { problem: `${what} is not wholly on the screen (top ${Math.round(box.top)}, bottom ${Math.round(box.bottom)})` };
      }
      const x = box.left + box.width / 2;
      for (const y of [box.top + box.height / 2, box.top + Math.min(4, box.height / 2)]) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === element || element.contains(hit))) {
          return { problem: `${what} is covered at y=${Math.round(y)} by ${hit?.outerHTML.slice(0, 80) ?? "nothing"}` };
        }
      }
      return { problem: null };
    })
    .then((focus) => focus.problem);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking at every stop
 * that the focused element is in view; fails after `limit` presses.
 */
export async function tabTo(page: Page, target: Locator, { backwards = false, limit = 40 } = {}) {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement, null, { timeout: 2_000 }).catch(() => false)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    await expectFocusInView(page);
  }
  await expect(target).toBeFocused();
}
