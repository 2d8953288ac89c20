import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { centsToDollars, dollarsToCents, formatCents } from "~/lib/money";
import { saveSettings, settingsJson } from "~/models/settings.server";
import { requireAdmin } from "~/utils/auth.server";
import { handleFunction, readJsonForm } from "~/utils/api.server";

/** No fee, threshold or minimum above this: a typo of an extra digit is refused rather than charged. */
const MAX_DOLLARS = 1_000;
const MAX_ZONES = 8;
const MAX_MILES = 200;

const dollars = (label: string) =>
  z
    .number({ required_error: `${label} is required`, invalid_type_error: `${label} must be a number of dollars` })
    .refine((value) => Number.isFinite(value) && Math.abs(centsToDollars(dollarsToCents(value)) - value) < 1e-8, `${label} can have at most 2 decimals`)
    .refine((value) => value >= 0, `${label} cannot be negative`)
    .refine((value) => value <= MAX_DOLLARS, `${label} can be at most ${formatCents(MAX_DOLLARS * 100)}`)
    .transform(dollarsToCents);

const orShopWide = (schema: ReturnType<typeof dollars>) => schema.nullable();

const zoneSchema = z.object({
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
  shippingFee: orShopWide(dollars("Shipping fee")),
  freeShippingThreshold: orShopWide(dollars("Free shipping threshold")),
});

const bodySchema = z
  .object({
    shippingFee: dollars("Shipping fee"),
    freeShippingThreshold: dollars("Free shipping threshold"),
    minimumOrder: dollars("Minimum order"),
    kitchen: z.object({
      lat: z.number({ required_error: "Latitude is required", invalid_type_error: "Latitude must be a number" }).min(-90, "Latitude is between -90 and 90").max(90, "Latitude is between -90 and 90"),
      lon: z.number({ required_error: "Longitude is required", invalid_type_error: "Longitude must be a number" }).min(-180, "Longitude is between -180 and 180").max(180, "Longitude is between -180 and 180"),
    }),
    zones: z
      .array(zoneSchema, { required_error: "Zones are required", invalid_type_error: "Zones must be a list" })
      .min(1, "Keep at least one zone: without one the shop delivers nowhere")
      .max(MAX_ZONES, `At most ${MAX_ZONES} zones`),
  })
  .superRefine((body, context) => {
    const seen = new Set<string>();
    body.zones.forEach((zone, index) => {
      // Nearest first, each reaching further than the one before: zones never overlap.
      const inner = body.zones[index - 1];
      if (inner && zone.upToMiles <= inner.upToMiles) {
        context.addIssue({ code: "custom", path: ["zones", index, "upToMiles"], message: `Must reach further than the zone before it (${inner.upToMiles} miles)` });
      }
      if (seen.has(zone.name)) context.addIssue({ code: "custom", path: ["zones", index, "name"], message: `Another zone is called "${zone.name}"` });
      seen.add(zone.name);
    });
  });

/**
 * The owner saves the shop's terms (decision 052): the whole of get-settings'
 * shape → the saved settings, or 400 with `fieldErrors` by path
 * ("zones.1.upToMiles"). Carts are priced on them from the next request; orders
 * already placed keep their figures.
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("save-settings", request, async () => {
    const admin = await requireAdmin(request, "settings.manage");
    const body = await readJsonForm(request, bodySchema);
    const saved = await saveSettings(admin.email, {
      shippingFeeCents: body.shippingFee,
      freeShippingThresholdCents: body.freeShippingThreshold,
      minimumOrderCents: body.minimumOrder,
      kitchen: body.kitchen,
      zones: body.zones.map((zone) => ({
        name: zone.name,
        upToMiles: zone.upToMiles,
        minimumOrderCents: zone.minimumOrder,
        shippingFeeCents: zone.shippingFee,
        freeShippingThresholdCents: zone.freeShippingThreshold,
      })),
    });
    return json(settingsJson(saved), { headers: { "Cache-Control": "no-store" } });
  });
}
