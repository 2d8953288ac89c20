import { setupServer } from "msw/node";
import { env } from "~/utils/env.server";
import { handlers } from "../../mocks";

/**
 * With MOCKS=true (the demo without a Stripe key) Stripe and the geocoder are
 * answered inside this process by the MSW stand-ins in mocks/. Requests to
 * anything else, this shop included, go out as usual.
 */
const globalForMocks = globalThis as typeof globalThis & { __mocksStarted?: boolean };

export function startMocks() {
  if (!env.MOCKS || globalForMocks.__mocksStarted) return;
  setupServer(...handlers).listen({ onUnhandledRequest: "bypass" });
  globalForMocks.__mocksStarted = true;
  console.log("Stripe and the geocoder are answered by the built-in stand-ins (MOCKS=true): no real payments.");
}
