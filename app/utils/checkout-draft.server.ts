import { createCookie } from "@remix-run/node";
import { z } from "zod";
import { secureCookies, sessionSecret } from "~/utils/env.server";
import { formText } from "~/utils/forms.server";
import { shippingFields } from "~/lib/shipping-fields";

/**
 * What the customer has typed into the checkout so far (the draft), kept by the
 * server so that a refresh, Cancel on the payment page or 'Return to checkout'
 * finds the form as it was, with JavaScript or without (decision 040).
 *
 * It lives in a signed, httpOnly cookie sent to /checkout only: never in a
 * URL, never in a log, never readable by the page's scripts. It is written by
 * every checkout post, by the page's quiet saves while someone types (with
 * JavaScript), and when an order given up refills the form; it is dropped
 * once an order is placed (the order then holds the details).
 */

/** The checkout's fields, plus the code the page has applied, the address it has checked and the delivery day chosen. */
export const draftFields = [...shippingFields, "code", "appliedCode", "checkedAddress", "deliveryDay"] as const;
export type CheckoutDraft = Partial<Record<(typeof draftFields)[number], string>>;

/** Longer than any field the form accepts, so nothing typed is cut; the form's own rules judge it later. */
const DRAFT_FIELD_MAX = 300;
const draftSchema = z.record(z.string(), z.string().max(DRAFT_FIELD_MAX));

const draftCookie = createCookie("chillpb_checkout", {
  path: "/checkout",
  httpOnly: true,
  sameSite: "lax",
  secure: secureCookies,
  secrets: [sessionSecret],
  // A day: long enough to come back after a break, short enough not to keep an address around.
  maxAge: 60 * 60 * 24,
});

export async function readDraft(request: Request): Promise<CheckoutDraft | null> {
  const parsed = draftSchema.safeParse(await draftCookie.parse(request.headers.get("Cookie")));
  if (!parsed.success) return null;
  const draft: CheckoutDraft = {};
  for (const field of draftFields) if (parsed.data[field]) draft[field] = parsed.data[field];
  return Object.keys(draft).length > 0 ? draft : null;
}

/** The draft as a post of the checkout form sent it. */
export function draftFromForm(formData: FormData): CheckoutDraft {
  return Object.fromEntries(draftFields.map((field) => [field, formText(formData, field, DRAFT_FIELD_MAX)]));
}

/** The draft as a post: the checkout's intents read it exactly as they read the form. */
export function draftToForm(draft: CheckoutDraft) {
  const formData = new FormData();
  for (const [field, value] of Object.entries(draft)) formData.set(field, value);
  return formData;
}

export function saveDraft(draft: CheckoutDraft) {
  return draftCookie.serialize(draft);
}

export function dropDraft() {
  return draftCookie.serialize({}, { maxAge: 0 });
}
