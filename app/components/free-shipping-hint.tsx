import { TruckIcon } from "~/components/icons";

/**
 * "Add $X.XX for free shipping", as the server worded it from the subtotal it
 * priced (freeShippingHint in app/models/pricing.server.ts). `stale` while a
 * cart change is still on its way, so the figure is not read as the new cart's.
 */
export function FreeShippingHint({ hint, stale = false }: { hint: string | null; stale?: boolean }) {
  if (!hint) return null;
  return (
    <p className={`free-shipping-hint ${stale ? "free-shipping-hint--stale" : ""}`} data-testid="free-shipping-hint" aria-live="polite">
      <TruckIcon /> {hint}
    </p>
  );
}
