import type { HttpHandler } from "msw";
import { geocoderHandlers } from "./geocoder";
import { stripeHandlers } from "./stripe";

/** Every outside service the shop talks to, one file each. */
export async function createHandlers(): Promise<HttpHandler[]> {
  return [...(await stripeHandlers()), ...(await geocoderHandlers())];
}
