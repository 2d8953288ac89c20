import { geocoderHandlers } from "./geocoder";
import { stripeHandlers } from "./stripe";

/** Every outside service the shop talks to, one file each. */
export const handlers = [...stripeHandlers, ...geocoderHandlers];
