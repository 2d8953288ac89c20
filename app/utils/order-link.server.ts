import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "~/utils/env.server";
import { publicOrigin } from "~/utils/origin.server";

/**
 * The customer's link to their order page, /orders/<id>?token=<token>, sent
 * in their emails. The token is an HMAC-SHA256 of the order id under the
 * session secret: only the shop can make one, it never expires (the emails
 * stay in the customer's inbox), and rotating SESSION_SECRET withdraws every
 * link at once. Decision 023.
 */

// A purpose prefix, so this MAC can never stand in for another one made with the same secret.
const PURPOSE = "chillpb:order-page:v1:";

export function orderPageToken(orderId: string) {
  return createHmac("sha256", sessionSecret)
    .update(PURPOSE + orderId)
    .digest("base64url");
}

/** Whether `token` is the order's, compared in constant time. */
export function isOrderPageToken(orderId: string, token: string | null | undefined) {
  if (!token) return false;
  const expected = Buffer.from(orderPageToken(orderId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function orderPagePath(orderId: string) {
  return `/orders/${orderId}?token=${orderPageToken(orderId)}`;
}

export function orderPageUrl(orderId: string) {
  return `${publicOrigin()}${orderPagePath(orderId)}`;
}
