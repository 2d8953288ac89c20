import type { MetaFunction } from "@remix-run/node";
import { brand } from "~/lib/brand";
import { LegalPage } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: `Privacy Policy | ${brand.name}` },
  { name: "description", content: `How ${brand.name} handles the information you share with us.` },
];

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <p>
        We collect only what we need to make and deliver your order: your name, email, phone number (if you give
        it) and delivery address. Card details are entered on our payment provider&apos;s page and never reach us.
      </p>
      <h2>How we use it</h2>
      <p>
        To deliver your order, to send you order and delivery emails, and, if you join our newsletter, to tell you
        about new flavors and offers. We never sell your information.
      </p>
      <h2>Your cart</h2>
      <p>
        Your cart is kept in a cookie and in your browser&apos;s local storage so it is still there when you come
        back. We use no advertising or tracking cookies.
      </p>
      <h2>Your choices</h2>
      <p>
        Every newsletter email has an unsubscribe link. To see or delete what we hold about you, write to{" "}
        <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>.
      </p>
    </LegalPage>
  );
}
