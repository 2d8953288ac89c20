import { type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { env } from "~/utils/env.server";
import { brand } from "~/lib/brand";
import { LegalPage } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: `Privacy Policy | ${brand.name}` },
  { name: "description", content: `How ${brand.name} handles the information you share with us.` },
];

/** The retention the shop runs with (decision 062), so the page states what it does. */
export function loader() {
  return { abandonedDays: env.RETENTION_ABANDONED_DAYS, emailDays: env.RETENTION_EMAIL_BODY_DAYS, geocoderDays: env.RETENTION_GEOCODER_DAYS };
}

export default function Privacy() {
  const days = useLoaderData<typeof loader>();
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <p>
        We collect only what we need to make and deliver your order: your name, email, phone number (if you give it) and delivery address. Card details are
        entered on our payment provider&apos;s page and never reach us.
      </p>
      <h2>How we use it</h2>
      <p>
        To deliver your order, to send you order and delivery emails, and, if you join our newsletter, to tell you about new flavors and offers. We never sell
        your information.
      </p>
      <h2>Your cart</h2>
      <p>
        Your cart is kept in a cookie and in your browser&apos;s local storage so it is still there when you come back. We use no advertising or tracking
        cookies.
      </p>
      <h2>How long we keep it</h2>
      <p>
        An order&apos;s details are kept for our accounts. If you start a checkout and never pay, we erase your name and address {days.abandonedDays} days
        later. What our emails to you said is erased {days.emailDays} days after we send them, and the location we looked up for your address is forgotten after{" "}
        {days.geocoderDays} days.
      </p>
      <h2>Our newsletter</h2>
      <p>
        If you join our family list, we send you emails about new flavors, special offers and news from our kitchen, and nothing else. We note when and where
        you joined (our sign-up form, or a list you signed at one of our stands) and when you left. To stop them, use the unsubscribe link at the foot of any of
        our emails, or your mail app&apos;s unsubscribe button: it takes effect at once, and you get no more. You can also write to{" "}
        <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a>. Our emails go out through our mail provider and no one else; we never share the list.
      </p>
      <h2>Your rights</h2>
      <p>
        Every newsletter email has an unsubscribe link. Under California law you may ask us what we hold about you (we send it to you as a file) or ask us to
        delete it: write to <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a> from the address you ordered with. We then erase your name,
        address, phone and email from your orders, your newsletter subscription and our emails to you, keeping only what our accounts must (the amounts, the
        items and the city we delivered to). If an order is still on its way, we do it once it has been delivered.
      </p>
    </LegalPage>
  );
}
