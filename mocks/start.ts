import { env } from "../app/utils/env.server";

/**
 * With MOCKS=true (the demo without a Stripe key) Stripe and the geocoder are
 * answered inside this process by the MSW stand-ins in this folder. Requests to
 * anything else, this shop included, go out as usual.
 */
const globalForMocks = globalThis as typeof globalThis & { __mocksStarted?: boolean };

export async function startMocks() {
  if (!env.MOCKS || globalForMocks.__mocksStarted) return;
  globalForMocks.__mocksStarted = true;
  // Imported only here (mocks/ imports MSW itself only when asked for its handlers), so a
  // real deployment never loads MSW (about 28 MB); tests/e2e/production-modules.spec.ts checks it.
  const [{ setupServer }, { createHandlers }] = await Promise.all([import("msw/node"), import("./index")]);
  setupServer(...(await createHandlers())).listen({ onUnhandledRequest: "bypass" });
  console.log("Stripe and the geocoder are answered by the built-in stand-ins (MOCKS=true): no real payments.");
}
