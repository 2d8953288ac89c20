import type { MetaFunction } from "@remix-run/node";
import { brand } from "~/brand";
import { LegalPage } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: `Terms of Service | ${brand.name}` },
  { name: "description", content: `The terms for ordering from ${brand.name}.` },
];

export default function Terms() {
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <h2>Orders</h2>
      <p>
        The minimum order is $20.00. Shipping is a flat $10.00, free on orders of $50.00 or more. Prices are in US
        dollars and are charged when you pay on our payment provider&apos;s page.
      </p>
      <h2>Delivery</h2>
      <p>
        We deliver within 25 miles of our West LA kitchen, in 2-3 business days, and ship within 24 hours of your
        order. Addresses more than 10 miles away have a minimum order of $50.00; more than 20 miles, $100.00.
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
