import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, type FormEvent } from "react";
import { brand } from "~/lib/brand";
import { constraintProps, errorProps, HoneypotField, refuseWhileWaiting, waitingProps, type FormConstraints } from "~/components/forms";
import { IconTiles } from "~/components/icon-tiles";
import { HeartIcon, MailIcon, SparkleIcon } from "~/components/icons";
import { useToast } from "~/components/toaster";
import type { LandingFormResult } from "~/routes/_index/landing.server";

const tiles = [
  { title: "10% Off First Order", text: "A welcome code, straight to your inbox.", icon: SparkleIcon },
  { title: "Exclusive Updates", text: "Behind the scenes of our LA kitchen.", icon: HeartIcon },
  { title: "New Flavor Alerts", text: "Be the first to try what's next.", icon: MailIcon },
];

/** The newsletter banner (requirements §2); `result` is the page's action data after a plain post. */
export function NewsletterSection({ result, constraints }: { result: LandingFormResult | null; constraints: FormConstraints }) {
  const fetcher = useFetcher<LandingFormResult>({ key: "newsletter" });
  const form = useRef<HTMLFormElement>(null);
  const toast = useToast();
  const busy = fetcher.state !== "idle";
  const mine = result?.form === "newsletter" ? result : null;
  const notice = mine?.toast && !mine.ok ? mine.toast : null;
  const emailError = (fetcher.data ?? mine)?.fieldErrors.email;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.toast) toast(fetcher.data.toast);
    if (fetcher.data.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data, toast]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    if (refuseWhileWaiting(event, busy)) return;
    const email = new FormData(event.currentTarget).get("email");
    // An empty email silently stops the submit (requirements §5).
    if (typeof email === "string" && email.trim() === "") event.preventDefault();
  }

  return (
    <section className="section newsletter" id="newsletter" aria-labelledby="newsletter-title">
      <div className="container newsletter__inner">
        <div className="newsletter__copy">
          <p className="eyebrow">The {brand.name} family</p>
          <h2 id="newsletter-title">Join the family, get 10% off</h2>
          <p className="lead">New-flavor alerts, special offers and exclusive updates from our kitchen, plus 10% off your first order.</p>
          {notice ? (
            <p className="notice notice--error" role="alert" id="newsletter-error">
              <strong>{notice.title}</strong> {notice.description}
            </p>
          ) : null}
          {/* The fragment brings a plain post's answer (the re-rendered page) back to this form, not to the top. */}
          <fetcher.Form method="post" action="/?index#newsletter" className="newsletter__form" ref={form} onSubmit={handleSubmit} noValidate>
            <input type="hidden" name="intent" value="newsletter" />
            <HoneypotField id="newsletter-website" />
            <label htmlFor="newsletter-email" className="visually-hidden">
              Email address
            </label>
            {/* Not a Field: the input sits inline beside the button, and its error is the notice above the form. */}
            <input
              id="newsletter-email"
              name="email"
              type="email"
              autoComplete="email"
              placeholder="Enter your email"
              defaultValue={mine?.values.email ?? ""}
              {...constraintProps(constraints.email)}
              {...errorProps(emailError, notice ? "newsletter-error" : undefined)}
            />
            <button type="submit" className="button button--primary" {...waitingProps(busy)}>
              {busy ? (
                <>
                  <span className="spinner spinner--small" aria-hidden="true" /> Sending...
                </>
              ) : (
                "Join Now"
              )}
            </button>
          </fetcher.Form>
          <p className="newsletter__privacy">We respect your privacy. Unsubscribe anytime. No spam, just delicious updates.</p>
        </div>
        <IconTiles tiles={tiles} className="newsletter__tiles" />
      </div>
    </section>
  );
}
