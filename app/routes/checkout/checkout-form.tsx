import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type FocusEvent, type FormEvent, type KeyboardEvent } from "react";
import type { CheckoutState } from "~/routes/checkout/checkout.server";
import { DeliveryResult, OrderSummary } from "~/components/checkout-parts";
import { Field, FieldError, refuseWhileWaiting, waitingProps, type FormConstraints } from "~/components/forms";
import { LockIcon } from "~/components/icons";
import type { FieldErrors } from "~/lib/checkout-form";
import { SHIPPING_FIELDS, shippingFields, type ShippingField } from "~/lib/shipping-fields";
import { useShopTerms } from "~/components/shop-terms";
import { DISCOUNT_CODE_MAX_LENGTH } from "~/lib/discount-code";
import { formatCents } from "~/lib/money";
import { chosenDeliveryWhen } from "~/lib/delivery-schedule";
import { DeliveryDayPicker } from "~/components/delivery-day-picker";

/**
 * The checkout's one form. Every button posts an intent to /checkout (a plain
 * post without JavaScript, the "checkout" fetcher with it) and the page then
 * shows the state the server answered: values, field errors, the applied code,
 * the delivery result and every figure of the summary.
 */

/** Fields whose change can change what the server decides (the code's eligibility, the delivery zone). */
const repriced = new Set(["email", "address", "city", "state", "zipCode"]);
/** The fields a delivery check answers for. */
const addressFieldNames = new Set(["address", "city", "state", "zipCode"]);

/** How long typing pauses before the form is saved for a refresh. */
const DRAFT_SAVE_DELAY_MS = 400;

/**
 * `locked`: an order of this cart can still be paid (back from the payment
 * page's Cancel); the form is shown as it was, every control off, until that
 * payment is cancelled (OpenPaymentOffer).
 */
export function CheckoutForm({ state, constraints, locked = false }: { state: CheckoutState; constraints: FormConstraints; locked?: boolean }) {
  const fetcher = useFetcher({ key: "checkout" });
  const form = useRef<HTMLFormElement>(null);
  const applyButton = useRef<HTMLButtonElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [email, setEmail] = useState(state.values.email);
  const { values, fieldErrors, discount, delivery, summary, deliveryDates } = state;
  // The day chosen among those offered: the server's, until the customer picks another.
  const [deliveryDay, setDeliveryDay] = useState(state.deliveryDay);
  useEffect(() => setDeliveryDay(state.deliveryDay), [state]);
  const terms = useShopTerms();
  const busy = fetcher.state !== "idle";
  const busyIntent = busy ? fetcher.formData?.get("intent") : null;
  // A refresh (sent when a changed field loses focus) never holds the buttons: the press that took the focus
  // away from the field would land on a busy button and be refused. The press's own post carries every field
  // and takes the refresh's place.
  const pressing = busy && busyIntent !== "refresh";
  // Busy, not disabled, while a press is answered: the pressed button keeps the keyboard's focus.
  const waiting = waitingProps(pressing);

  // The last button pressed, remembered until its answer arrives.
  const sentIntent = useRef<string | null>(null);
  if (typeof busyIntent === "string") sentIntent.current = busyIntent;

  // Move focus to the first field the server refused or, after a delivery check, to its result.
  useEffect(() => {
    const intent = sentIntent.current;
    sentIntent.current = null;
    const first = Object.keys(state.fieldErrors)[0];
    if (first) form.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
    else if (state.delivery && (intent === "check-delivery" || intent === "place-order")) {
      form.current?.querySelector<HTMLElement>("[data-testid=delivery-result]")?.focus();
    }
  }, [state]);

  /** Asks the server again after the email or address changed, so the summary never shows a stale code or zone. */
  function refreshOnChange(event: FocusEvent<HTMLFormElement>) {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !repriced.has(field.name) || field.value === values[field.name as keyof typeof values]) return;
    if (!discount && !delivery) return;
    // Leaving the field for one of the form's buttons: that press's own post carries every field, so a refresh
    // would only race it (browsers that do not focus a pressed button send the refresh, and the press replaces it).
    const next = event.relatedTarget;
    if (next instanceof HTMLButtonElement && next.type === "submit" && next.form === form.current) return;
    const formData = new FormData(form.current!);
    formData.set("intent", "refresh");
    fetcher.submit(formData, { method: "post", action: "/checkout" });
  }

  // What is typed is saved quietly (debounced, and at once when the page goes away), so a refresh finds it again.
  const pendingSave = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveNow = useCallback(() => {
    if (pendingSave.current) clearTimeout(pendingSave.current);
    pendingSave.current = null;
    if (!form.current) return;
    const fields = [...new FormData(form.current)].filter((entry): entry is [string, string] => typeof entry[1] === "string");
    // A lost save costs nothing: the next one, or the next post, carries the same fields.
    fetch("/checkout/draft", { method: "POST", body: new URLSearchParams(fields), keepalive: true }).catch(() => undefined);
  }, []);
  /** A post carries the same fields, and the server keeps them from it; none goes while a press is answered. */
  function submit(event: FormEvent<HTMLFormElement>) {
    if (refuseWhileWaiting(event, pressing)) return;
    if (pendingSave.current) clearTimeout(pendingSave.current);
    pendingSave.current = null;
  }
  function saveSoon() {
    if (pendingSave.current) clearTimeout(pendingSave.current);
    pendingSave.current = setTimeout(saveNow, DRAFT_SAVE_DELAY_MS);
  }

  // The address as typed is no longer the one the server last answered for (until its next answer).
  const [addressChanged, setAddressChanged] = useState(false);
  useEffect(() => setAddressChanged(false), [state]);
  function typed(event: FormEvent<HTMLFormElement>) {
    saveSoon();
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !addressFieldNames.has(field.name) || !form.current) return;
    const now = new FormData(form.current);
    setAddressChanged([...addressFieldNames].some((name) => String(now.get(name) ?? "") !== values[name as keyof typeof values]));
  }
  // What was typed before the page was enhanced (its scripts come after its first paint, decision 075) is in the
  // fields but not in this state: the email decides whether Apply is on, and the draft was not saved.
  useEffect(() => {
    setHydrated(true);
    const typed = form.current?.querySelector<HTMLInputElement>('input[name="email"]')?.value;
    if (typed !== undefined) setEmail(typed);
    const inputs = form.current ? [...form.current.querySelectorAll<HTMLInputElement>("input:not([type=hidden])")] : [];
    if (inputs.some((input) => input.value !== input.defaultValue)) saveNow();
  }, [saveNow]);
  useEffect(() => {
    const flush = () => pendingSave.current && saveNow();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [saveNow]);

  /** Enter in the code field applies the code (without JavaScript, the server applies a typed code first). */
  function applyOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    form.current?.requestSubmit(applyButton.current);
  }

  const addressText = `${values.address}, ${values.city}, ${values.state} ${values.zipCode}`;
  const belowMinimum = summary.remainingCents > 0;
  // Checked and not deliverable: the contact card is the way forward, and its Send Email the main button.
  // Once the address is changed, that answer no longer holds: Place Order checks the new one, as before the first check.
  const undeliverable = Boolean(delivery && !delivery.ok) && !addressChanged;
  const checked = Boolean(delivery) && !addressChanged;
  // The days offered are the checked address's zone's: once the address changes, the next check offers its own.
  const days = checked && delivery?.ok ? deliveryDates : null;
  const noDayOpen = Boolean(days && !days.some((day) => day.available));
  const deliveryText = days ? chosenDeliveryWhen(days, deliveryDay) : null;

  const controls = (
    <>
      {/* Enter in any other field places the order (or, before the delivery check, performs it). */}
      <button type="submit" name="intent" value="place-order" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
      <input type="hidden" name="appliedCode" value={discount?.code ?? ""} />
      <input type="hidden" name="checkedAddress" value={delivery?.addressKey ?? ""} />
      {/* The total this page shows: the server refuses to charge any other. */}
      <input type="hidden" name="quotedTotalCents" value={summary.totalCents} />

      <div className="checkout__main">
        <section className="panel" aria-labelledby="shipping-title">
          <h2 id="shipping-title">Shipping Information</h2>
          <div className="fields">
            {shippingFields.map((name) => (
              <ShippingInput
                key={name}
                constraints={constraints}
                name={name}
                {...SHIPPING_FIELDS[name].input}
                defaultValue={values[name]}
                errors={fieldErrors}
                onChange={name === "email" ? setEmail : undefined}
              />
            ))}
          </div>
        </section>

        <section className="panel" aria-labelledby="delivery-title">
          <h2 id="delivery-title">Delivery Check</h2>
          <p className="panel__hint">We deliver within {terms.radiusMiles} miles of our West LA kitchen. Check your address before you pay.</p>
          <button type="submit" name="intent" value="check-delivery" className="button button--ghost" {...waiting}>
            {busyIntent === "check-delivery" ? "Checking…" : delivery ? "Check Again" : "Check Delivery"}
          </button>
          {delivery ? <DeliveryResult delivery={delivery} address={addressText} /> : null}
          {days ? <DeliveryDayPicker dates={days} chosen={state.deliveryDay} error={fieldErrors.deliveryDay} onChoose={setDeliveryDay} /> : null}
        </section>

        <section className="panel" aria-labelledby="discount-title">
          <h2 id="discount-title">Discount Code</h2>
          <div className="discount">
            <label htmlFor="code" className="visually-hidden">
              Discount code
            </label>
            <input
              id="code"
              name="code"
              placeholder="WELCOME10"
              defaultValue={discount?.code ?? values.code}
              key={discount?.code ?? `typed-${values.code}`}
              disabled={Boolean(discount)}
              autoCapitalize="characters"
              maxLength={DISCOUNT_CODE_MAX_LENGTH}
              onKeyDown={applyOnEnter}
              aria-invalid={fieldErrors.code ? true : undefined}
              aria-describedby={fieldErrors.code ? "code-error code-help" : "code-help"}
            />
            {discount ? (
              <button type="submit" name="intent" value="remove-discount" className="button button--ghost" {...waiting}>
                Remove
              </button>
            ) : (
              <button
                type="submit"
                name="intent"
                value="apply-discount"
                className="button button--ghost"
                ref={applyButton}
                // Requirements §5: the code is checked against the email, so it comes first. Without
                // JavaScript the email travels in the same post, so the button is always on.
                disabled={hydrated && !email.trim()}
                {...waiting}
              >
                Apply
              </button>
            )}
          </div>
          <FieldError id="code-error" error={fieldErrors.code} />
          <p id="code-help" className="panel__hint">
            {discount ? `${discount.code} applied: ${discount.description}.` : "Enter your email first. First order? Try WELCOME10."}
          </p>
        </section>
      </div>

      <aside className="checkout__aside">
        {/* On a phone the summary comes first, folded to its total, as large shops do; from 900 px it is always open beside the form. */}
        {/* Whatever turns Place Order off (a line that can no longer be bought, a cart below a minimum) opens it: the reason must be in view. */}
        <details className="summary-toggle" open={summary.cartProblem || belowMinimum || summary.zoneRemainingCents > 0 ? true : undefined}>
          <summary className="summary-toggle__bar">
            <span>Order summary</span>
            <strong>{formatCents(summary.totalCents)}</strong>
          </summary>
          <OrderSummary summary={summary} />
          {deliveryText ? (
            <p className="summary-delivery" data-testid="summary-delivery">
              Delivery: {deliveryText}
            </p>
          ) : null}
        </details>
        {state.testCard ? (
          <p className="notice notice--warning" data-testid="test-card-hint">
            Test checkout: pay with card 4242 4242 4242 4242, any future date and any CVC.
          </p>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="place-order"
          className="button button--primary button--large button--block"
          disabled={belowMinimum || Boolean(summary.cartProblem) || undeliverable || noDayOpen}
          {...waiting}
        >
          <LockIcon /> {busyIntent === "place-order" ? "Placing order…" : checked ? "Place Order" : "Check Delivery & Continue"}
        </button>
        {undeliverable ? (
          <p className="panel__hint checkout__secure" data-testid="undeliverable-hint">
            We can&apos;t deliver to this address yet: change it and check again, or contact us.
          </p>
        ) : null}
        <p className="panel__hint checkout__secure">
          {hydrated ? "Secure payment by Stripe opens in a new tab." : "Secure payment by Stripe: you go to its payment page next."}
        </p>
      </aside>
    </>
  );
  return (
    <fetcher.Form method="post" action="/checkout" className="checkout__grid" noValidate ref={form} onBlur={refreshOnChange} onInput={typed} onSubmit={submit}>
      {/* A disabled fieldset turns off every control inside it, with JavaScript or without; it adds no box of its own. */}
      {locked ? (
        <fieldset disabled className="checkout__locked" data-testid="checkout-locked">
          {controls}
        </fieldset>
      ) : (
        controls
      )}
    </fetcher.Form>
  );
}

/** A shipping field: its constraints, and whether it is marked required or optional, come from shippingSchema (sent by the loader). */
function ShippingInput({
  name,
  defaultValue,
  errors,
  type = "text",
  autoComplete,
  inputMode,
  onChange,
  constraints,
}: {
  name: ShippingField;
  defaultValue: string;
  errors: FieldErrors;
  type?: string;
  autoComplete?: string;
  inputMode?: "email" | "tel" | "numeric" | "text";
  onChange?: (value: string) => void;
  constraints: FormConstraints;
}) {
  const constraint = constraints[name];
  // Past its limit the field says so as it is typed (the server would refuse it on submit, in the same words), and
  // keeps the text: the visitor shortens it themselves.
  const max = constraint?.maxLength;
  const [length, setLength] = useState(defaultValue.trim().length);
  const tooLong = max !== undefined && length > max ? `At most ${max} characters: this is ${length}` : undefined;
  return (
    <Field
      className={`field field--${name}`}
      label={
        <>
          {SHIPPING_FIELDS[name].label}
          {constraint?.required ? <span aria-hidden="true"> *</span> : <span className="field__optional"> (optional)</span>}
        </>
      }
      // No maxLength: a browser would cut a long name or address silently; the server names the limit instead, keeping the text.
      constraint={constraint && { ...constraint, maxLength: undefined }}
      error={tooLong ?? errors[name]}
      live={max !== undefined}
      inputProps={{
        id: name,
        name,
        type,
        defaultValue,
        autoComplete,
        inputMode,
        onChange: (event) => {
          setLength(event.target.value.trim().length);
          onChange?.(event.target.value);
        },
      }}
    />
  );
}
