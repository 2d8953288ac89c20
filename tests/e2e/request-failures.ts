import type { Page, Route } from "@playwright/test";
import { REQUEST_DEADLINE_MS } from "../../app/lib/request-failure";

/**
 * Makes the page's posts to `pathname` fail the way a visitor's requests do:
 * the network drops them (`network`), the shop answers its error page
 * (`server`), or no answer comes at all (`timeout`: the page's clock is moved
 * past its deadline). Other requests pass. Answers `restore`, which lets the
 * next posts through (a retry) and drops a held one.
 */
export type Failure = "network" | "server" | "timeout";

/**
 * The page a request is for: its path, or the page's for the data single
 * fetch asks for (`/checkout.data`, `/_root.data` for `/`): a form posts to
 * its page without JavaScript and to the page's data with it.
 */
export function pagePath(url: URL): string {
  return url.pathname.endsWith(".data") ? url.pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : url.pathname;
}

export async function failPosts(page: Page, pathname: string, failure: Failure) {
  const held: Route[] = [];
  let arrived = () => {};
  const firstHeld = new Promise<void>((resolve) => (arrived = resolve));
  const matches = (url: URL) => pagePath(url) === pathname;
  const handler = async (route: Route) => {
    if (route.request().method() !== "POST") return route.fallback();
    if (failure === "network") return route.abort("internetdisconnected");
    if (failure === "server") return route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" });
    held.push(route);
    arrived();
  };
  // A press before hydration posts the plain form and the browser shows the failed answer as a page:
  // the in-page failure messages these tests look for exist only once the page is enhanced.
  await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
  await page.route(matches, handler);
  return {
    /** For `timeout`: once the post is on its way, the page's clock passes its deadline. */
    async expire() {
      if (failure !== "timeout") return;
      await firstHeld;
      await page.clock.fastForward(REQUEST_DEADLINE_MS + 1_000);
    },
    async restore() {
      // Dropped before the handler goes: a route still held when it goes would be let through.
      await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
      await page.unroute(matches, handler);
    },
  };
}

/** Call before page.goto for the `timeout` failure: the page's timers then answer to page.clock. */
export async function installClockFor(page: Page, failure: Failure) {
  if (failure === "timeout") await page.clock.install();
}

/**
 * The page's processor runs `rate` times slower, as on a cheap phone or a busy test machine: the page has loaded
 * (and can be pressed) for a while before React has hydrated it, the moment a test that presses at once must not
 * mistake for the enhanced page.
 */
export async function slowProcessor(page: Page, rate: number) {
  const session = await page.context().newCDPSession(page);
  await session.send("Emulation.setCPUThrottlingRate", { rate });
  return {
    /** Back to full speed. */
    async end() {
      await session.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    },
  };
}
