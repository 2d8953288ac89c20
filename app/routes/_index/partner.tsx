import { Link, useFetcher, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Field, HoneypotField, TextareaField, refuseWhileWaiting, waitingProps, type FormConstraints } from "~/components/forms";
import { brand } from "~/lib/brand";
import { CloseIcon, HeartIcon } from "~/components/icons";
import { useToast } from "~/components/toaster";
import type { PartnershipFields } from "~/lib/partnership-form";
import type { LandingFormResult } from "~/routes/_index/landing.server";

/** The 'Partner With Us' call to action; its dialog is open at /?partner=open (no JavaScript needed). */
export function PartnerSection({ result, constraints }: { result: LandingFormResult | null; constraints: FormConstraints }) {
  const [searchParams] = useSearchParams();
  const mine = result?.form === "partnership" ? result : null;
  const open = searchParams.get("partner") === "open" || Boolean(mine && !mine.ok);
  return (
    <section className="section partner" id="partner" aria-labelledby="partner-title">
      <div className="container partner__inner">
        <div>
          <p className="eyebrow">For cafés, gyms, schools &amp; shops</p>
          <h2 id="partner-title">Stock {brand.name} at your place</h2>
          <p className="lead">
            We supply local businesses across West LA and the South Bay with freezer-ready bars and bites. Tell us about yours and we&apos;ll be in touch.
          </p>
        </div>
        <Link to="/?partner=open" preventScrollReset className="button button--primary button--large">
          <HeartIcon /> Partner With Us
        </Link>
      </div>
      {open ? <PartnerDialog result={mine} constraints={constraints} /> : null}
    </section>
  );
}

function PartnerDialog({ result, constraints }: { result: LandingFormResult | null; constraints: FormConstraints }) {
  const fetcher = useFetcher<LandingFormResult>({ key: "partnership" });
  const navigate = useNavigate();
  const toast = useToast();
  const panel = useRef<HTMLDivElement>(null);
  const data = fetcher.data ?? result;
  const values = data && !data.ok ? data.values : {};
  const fieldErrors = data && !data.ok ? data.fieldErrors : {};
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    panel.current?.querySelector<HTMLInputElement>("input[name=name]")?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") navigate("/", { replace: true, preventScrollReset: true });
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [navigate]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.toast) toast(fetcher.data.toast);
    // On success the form clears and the dialog closes (requirements §4).
    if (fetcher.data.ok) navigate("/", { replace: true, preventScrollReset: true });
  }, [fetcher.state, fetcher.data, toast, navigate]);

  /** A field's label (starred where the schema requires it), constraints and error. */
  const field = (name: PartnershipFields, label: string) => ({
    label: constraints[name]?.required ? `${label}*` : label,
    constraint: constraints[name],
    error: fieldErrors[name],
  });
  const input = (name: PartnershipFields) => ({ id: `partner-${name}`, name, defaultValue: values[name] ?? "" });

  return (
    <div className="drawer dialog">
      <Link to="/" replace preventScrollReset className="drawer__backdrop" aria-hidden="true" tabIndex={-1} />
      <div className="dialog__panel" role="dialog" aria-modal="true" aria-labelledby="partner-dialog-title" ref={panel}>
        <header className="drawer__header">
          <h2 id="partner-dialog-title">Partner With Us</h2>
          <Link to="/" replace preventScrollReset className="icon-button" aria-label="Close">
            <CloseIcon />
          </Link>
        </header>
        {data?.toast && !data.ok && !fetcher.data ? (
          <p className="notice notice--error" role="alert">
            <strong>{data.toast.title}</strong> {data.toast.description}
          </p>
        ) : null}
        <fetcher.Form method="post" action="/?index" className="dialog__form" noValidate onSubmit={(event) => refuseWhileWaiting(event, busy)}>
          <input type="hidden" name="intent" value="partnership" />
          <HoneypotField id="partner-website" />
          <Field {...field("name", "Name")} inputProps={{ ...input("name"), autoComplete: "name" }} />
          <Field {...field("email", "Email")} inputProps={{ ...input("email"), type: "email", autoComplete: "email" }} />
          <Field {...field("business", "Business Name")} inputProps={{ ...input("business"), autoComplete: "organization" }} />
          <TextareaField {...field("message", "Message")} inputProps={{ ...input("message"), rows: 5 }} />
          <div className="dialog__actions">
            <Link to="/" replace preventScrollReset className="button button--ghost">
              Cancel
            </Link>
            <button type="submit" className="button button--primary" {...waitingProps(busy)}>
              {busy ? "Sending..." : "Send Message"}
            </button>
          </div>
        </fetcher.Form>
      </div>
    </div>
  );
}
