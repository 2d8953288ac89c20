import { z } from "zod";
import { centsToDollars, dollarsToCents, formatCents } from "~/lib/money";
import type { ZoneTerms } from "~/lib/shop-settings";

/**
 * A delivery zone's terms (app/lib/shop-settings.ts) in their two other
 * forms, side by side: as ShopSettings.zones stores them (cents, read back
 * through storedZoneSchema, never cast), and as the owner's functions speak
 * them (dollars; get-settings answers zoneJson, save-settings takes it back
 * through zoneBodySchema). Both are typed by ZoneTerms, so a term added there
 * fails the typecheck here until each form has it. Here, not in app/lib: zod
 * stays out of the storefront's browser code.
 */

/** No fee, threshold or minimum above this: a typo of an extra digit is refused rather than charged. */
const MAX_DOLLARS = 1_000;
const MAX_MILES = 200;

/** A figure in dollars as the owner types it: at most 2 decimals, 0 to MAX_DOLLARS, as integer cents. */
export const dollars = (label: string) =>
  z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number of dollars` })
    .refine((value) => Number.isFinite(value) && Math.abs(centsToDollars(dollarsToCents(value)) - value) < 1e-8, `${label} can have at most 2 decimals`)
    .refine((value) => value >= 0, `${label} cannot be negative`)
    .refine((value) => value <= MAX_DOLLARS, `${label} can be at most ${formatCents(MAX_DOLLARS * 100)}`)
    .transform(dollarsToCents);

/** A zone as the settings row stores it. */
export const storedZoneSchema: z.ZodType<ZoneTerms> = z
  .object({
    name: z.string().min(1),
    upToMiles: z.number().positive(),
    minimumOrderCents: z.number().int().nonnegative(),
    shippingFeeCents: z.number().int().nonnegative().nullable(),
    freeShippingThresholdCents: z.number().int().nonnegative().nullable(),
  })
  .strict();

/** A zone as save-settings takes it (dollars; a null fee or threshold: the shop-wide one), checked, as its stored terms. */
export const zoneBodySchema = z
  .object({
    name: z
      .string({ required_error: "Name is required", invalid_type_error: "Name must be text" })
      .trim()
      .toLowerCase()
      .pipe(
        z
          .string()
          .min(1, "Name is required")
          .max(30, "Name can be at most 30 characters")
          .regex(/^[a-z0-9]+( [a-z0-9]+)*$/, "Name may hold only letters, digits and single spaces"),
      ),
    upToMiles: z
      .number({ required_error: "Miles are required", invalid_type_error: "Miles must be a number" })
      .refine((value) => Number.isFinite(value) && Math.round(value * 10) === value * 10, "Miles can have at most 1 decimal")
      .refine((value) => value > 0 && value <= MAX_MILES, `Miles must be more than 0 and at most ${MAX_MILES}`),
    minimumOrder: dollars("Minimum order"),
    shippingFee: dollars("Shipping fee").nullable(),
    freeShippingThreshold: dollars("Free shipping threshold").nullable(),
  })
  .transform((zone): ZoneTerms => ({
    name: zone.name,
    upToMiles: zone.upToMiles,
    minimumOrderCents: zone.minimumOrder,
    shippingFeeCents: zone.shippingFee,
    freeShippingThresholdCents: zone.freeShippingThreshold,
  }));

/** A zone as get-settings answers it: what save-settings takes back. */
export type ZoneJson = z.input<typeof zoneBodySchema>;

export function zoneJson(zone: ZoneTerms): ZoneJson {
  const orShopWide = (cents: number | null) => (cents === null ? null : centsToDollars(cents));
  return {
    name: zone.name,
    upToMiles: zone.upToMiles,
    minimumOrder: centsToDollars(zone.minimumOrderCents),
    shippingFee: orShopWide(zone.shippingFeeCents),
    freeShippingThreshold: orShopWide(zone.freeShippingThresholdCents),
  };
}
