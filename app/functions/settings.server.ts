import { z } from "zod";
import { centsToDollars, dollarsToCents, formatCents } from "~/lib/money";
import { DEFAULT_SETTINGS } from "~/lib/shop-settings";
import { shopSettings } from "~/models/catalog.server";
import { saveSettings, settingsJson } from "~/models/settings.server";
import { EMAIL_STATUSES, listEmails, resendEmail, systemStatus } from "~/models/system.server";
import { apiError } from "~/utils/api.server";
import { defineFunction } from "./define.server";

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

const settingsSchema = z
  .object({
    shippingFee: dollars("Shipping fee"),
    freeShippingThreshold: dollars("Free shipping threshold"),
    minimumOrder: dollars("Minimum order"),
    kitchen: z.object({
      lat: z
        .number({ required_error: "Latitude is required", invalid_type_error: "Latitude must be a number" })
        .min(-90, "Latitude is between -90 and 90")
        .max(90, "Latitude is between -90 and 90"),
      lon: z
        .number({ required_error: "Longitude is required", invalid_type_error: "Longitude must be a number" })
        .min(-180, "Longitude is between -180 and 180")
        .max(180, "Longitude is between -180 and 180"),
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
        context.addIssue({
          code: "custom",
          path: ["zones", index, "upToMiles"],
          message: `Must reach further than the zone before it (${inner.upToMiles} miles)`,
        });
      }
      if (seen.has(zone.name)) context.addIssue({ code: "custom", path: ["zones", index, "name"], message: `Another zone is called "${zone.name}"` });
      seen.add(zone.name);
    });
  });

const emailsSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  status: z.enum(EMAIL_STATUSES).nullable().default(null),
});

const resendSchema = z.object({ id: z.string({ required_error: "is required", invalid_type_error: "must be text" }).uuid("must be an email's id") });

/** The shop's terms (decision 052) and the owner's System page (decision 054): its status, the outbox, a resend. */
export const settingsFunctions = {
  /** The shop's terms for any operator: {} → { shippingFee, freeShippingThreshold, minimumOrder, kitchen, zones } (decision 052). */
  "get-settings": defineFunction({
    access: "settings.view",
    run: async () => settingsJson(await shopSettings({ maxAgeMs: 0 })),
  }),

  /**
   * The owner saves the shop's terms (decision 052): the whole of get-settings'
   * shape → the saved settings, or 400 with `fieldErrors` by path
   * ("zones.1.upToMiles"). Carts are priced on them from the next request; orders
   * already placed keep their figures.
   */
  "save-settings": defineFunction({
    access: "settings.manage",
    body: settingsSchema,
    // The shop's own defaults (app/lib/shop-settings.ts), as the admin's form sends them.
    example: settingsJson(DEFAULT_SETTINGS),
    async run({ body, admin }) {
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
      return settingsJson(saved);
    },
  }),

  /**
   * The owner's System page (decision 054): {} → { release, database, emails
   * (backlog, oldest waiting, dead, sent in the last day), lastWebhook, jobs }.
   */
  "get-system": defineFunction({
    access: "system.manage",
    run: () => systemStatus(),
  }),

  /**
   * The outbox for the owner (decision 054): { page?, pageSize?, status? } →
   * { emails: [{ id, kind, to, subject, status: "pending" | "sent" | "dead",
   * attempts, lastError, createdAt, sentAt, resentAs }], total }, newest first.
   */
  "get-emails": defineFunction({
    access: "system.manage",
    body: emailsSchema,
    example: { page: 1, pageSize: 20, status: "dead" },
    run: ({ body }) => listEmails(body),
  }),

  /**
   * { id } → { message, id }: queues one new copy of a sent or dead email, once
   * (decision 054); 404 for an unknown id, 409 for an email still waiting, one
   * withdrawn, or one resent already.
   */
  "resend-email": defineFunction({
    access: "system.manage",
    body: resendSchema,
    example: { id: "3b8f5c2a-9d41-4e7b-a6c3-1f2e4d5a6b70" },
    async run({ body: { id }, admin }) {
      const resent = await resendEmail(admin.email, id);
      if (!resent.ok) return apiError(resent.status, resent.error);
      return { message: "The email is queued again.", id: resent.id };
    },
  }),
};
