import type { MetaFunction } from "@remix-run/node";
import { brand } from "~/lib/brand";
import { LegalPage } from "~/components/legal-page";
import { FREE_SHIPPING_THRESHOLD_CENTS, MINIMUM_ORDER_CENTS, SHIPPING_CENTS } from "~/lib/cart";
import { DELIVERY_RADIUS_MILES, DELIVERY_ZONES } from "~/lib/delivery-zones";
import { formatCents } from "~/lib/money";

export const meta: MetaFunction = () => [
  { title: `Terms of Service | ${brand.name}` },
  { name: "description", content: `The terms for ordering from ${brand.name}.` },
];

const [standard, extended, premium] = DELIVERY_ZONES;

export default function Terms() {
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <h2>Orders</h2>
      <p>
        The minimum order is {formatCents(MINIMUM_ORDER_CENTS)}. Shipping is a flat {formatCents(SHIPPING_CENTS)}, free on
        orders of {formatCents(FREE_SHIPPING_THRESHOLD_CENTS)} or more. Prices are in US
        dollars and are charged when you pay on our payment provider&apos;s page.
      </p>
      <h2>Delivery</h2>
      <p>
        We deliver within {DELIVERY_RADIUS_MILES} miles of our West LA kitchen, in 2-3 business days, and ship within 24
        hours of your order. Addresses more than {standard.maxMiles} miles away have a minimum order of{" "}
        {formatCents(extended.minimumCents)}; more than {extended.maxMiles} miles, {formatCents(premium.minimumCents)}.
      </p>
      <h2>Our products</h2>
      <p>
        Our bars and bites contain peanuts, milk and may contain traces of tree nuts and soy. Keep them frozen and
        enjoy them within 30 days of delivery.
      </p>
      <h2>Questions</h2>
      <p>
        If something is not right with your order, write to{" "}
        <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a> or call {brand.phone} and we will make it
        right.
      </p>
    </LegalPage>
  );
}
