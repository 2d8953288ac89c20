import type { MetaFunction } from "@remix-run/node";
import { brand } from "~/lib/brand";
import { LegalPage } from "~/components/legal-page";
import { useShopTerms } from "~/components/shop-terms";
import { formatCents } from "~/lib/money";
import type { ShopTerms } from "~/lib/shop-settings";
import { scheduleSentence } from "~/lib/delivery-schedule";

export const meta: MetaFunction = () => [
  { title: `Terms of Service | ${brand.name}` },
  { name: "description", content: `The terms for ordering from ${brand.name}.` },
];

/** The zones whose shipping differs from the shop's: "the extended zone: $15.00, free from $60.00". */
function shippingWords(terms: ShopTerms) {
  return terms.zones
    .filter((zone) => zone.shippingFeeCents !== terms.shippingFeeCents || zone.freeShippingThresholdCents !== terms.freeShippingThresholdCents)
    .map((zone) => `the ${zone.name} zone: ${formatCents(zone.shippingFeeCents)}, free from ${formatCents(zone.freeShippingThresholdCents)}`)
    .join("; ");
}

/** " Addresses more than 10 miles away have a minimum order of $50.00; more than 20 miles, $100.00." */
function zoneMinimumWords(terms: ShopTerms) {
  const parts = terms.zones.flatMap((zone, index) => {
    const inner = terms.zones[index - 1];
    if (zone.minimumOrderCents === 0) return [];
    return [{ from: inner ? `more than ${inner.upToMiles} miles` : `up to ${zone.upToMiles} miles`, minimum: formatCents(zone.minimumOrderCents) }];
  });
  if (parts.length === 0) return "";
  const [first, ...rest] = parts;
  return ` Addresses ${first!.from} away have a minimum order of ${first!.minimum}${rest.map((part) => `; ${part.from}, ${part.minimum}`).join("")}.`;
}

export default function Terms() {
  const terms = useShopTerms();
  const shipping = shippingWords(terms);
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <h2>Orders</h2>
      <p>
        The minimum order is {formatCents(terms.minimumOrderCents)}. Shipping is a flat {formatCents(terms.shippingFeeCents)}, free on orders of{" "}
        {formatCents(terms.freeShippingThresholdCents)} or more{shipping ? ` (${shipping})` : ""}. Prices are in US dollars and are charged when you pay on our
        payment provider&apos;s page.
      </p>
      <h2>Delivery</h2>
      <p>
        We deliver within {terms.radiusMiles} miles of our West LA kitchen. {scheduleSentence(terms.delivery)}; we make each order for the day its customer
        chose, and a day that is full or closed cannot be chosen.
        {zoneMinimumWords(terms)}
      </p>
      <h2>Our products</h2>
      <p>Our bars and bites contain peanuts, milk and may contain traces of tree nuts and soy. Keep them frozen and enjoy them within 30 days of delivery.</p>
      <h2>Questions</h2>
      <p>
        If something is not right with your order, write to <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a> or call {brand.phone} and we will
        make it right.
      </p>
    </LegalPage>
  );
}
