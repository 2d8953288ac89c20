import { expect } from "vitest";
import type { Message } from "~/lib/messages";
import { readToast } from "~/utils/toast.server";

/**
 * Matchers for what a route answers (Epic Stack's tests/setup/custom-matchers.ts):
 * `toHaveRedirect(path?)` and `toSendToast(expected)`.
 */

interface CustomMatchers<R = unknown> {
  /** A 3xx Response with a Location header; with `path`, that Location exactly. */
  toHaveRedirect(path?: string): R;
  /** A Response whose Set-Cookie carries the toast flash cookie, holding a toast equal to `expected` (asymmetric matchers allowed). */
  toSendToast(expected: Message): Promise<R>;
}

declare module "vitest" {
  // The type parameter must match vitest's own declaration (`T = any`) for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends CustomMatchers<T> {}
}

function assertResponse(received: unknown, matcher: string): asserts received is Response {
  if (!(received instanceof Response)) throw new TypeError(`${matcher} must be called with a Response, got ${typeof received}`);
}

expect.extend({
  toHaveRedirect(received: unknown, path?: string) {
    assertResponse(received, "toHaveRedirect");
    const location = received.headers.get("Location");
    const isRedirect = received.status >= 300 && received.status < 400 && location !== null;
    const pass = isRedirect && (path === undefined || location === path);
    const wanted = path === undefined ? "a redirect" : `a redirect to ${this.utils.printExpected(path)}`;
    const got = isRedirect
      ? `a ${received.status} redirect to ${this.utils.printReceived(location)}`
      : `status ${this.utils.printReceived(received.status)} with Location ${this.utils.printReceived(location)}`;
    return {
      pass,
      message: () => `Expected the response ${this.isNot ? "not " : ""}to be ${wanted}, but it was ${got}`,
    };
  },

  async toSendToast(received: unknown, expected: unknown) {
    assertResponse(received, "toSendToast");
    // Read the toast back the way the next page load does: send every cookie
    // the response sets to the app's own reader, which finds and verifies its
    // signed cookie (no copy of the cookie's name or signing here).
    const cookie = received.headers
      .getSetCookie()
      .map((setCookie) => setCookie.split(";")[0])
      .join("; ");
    const { toast } = await readToast(new Request("http://shop.test/", { headers: { Cookie: cookie } }));
    if (!toast) {
      return { pass: false, message: () => `Expected the response ${this.isNot ? "not " : ""}to send a toast, but it sent none` };
    }
    const pass = this.equals(toast, expected);
    return {
      pass,
      message: () =>
        `Expected the response ${this.isNot ? "not " : ""}to send the toast ${this.utils.printExpected(expected)}` +
        (pass ? "" : `\n\n${this.utils.diff(expected, toast) ?? ""}`),
    };
  },
});
