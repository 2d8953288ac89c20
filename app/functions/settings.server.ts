import { z } from "zod";
import { addressSchema } from "~/lib/checkout-form";
import { DEFAULT_SETTINGS } from "~/lib/shop-settings";
import { shopSettings } from "~/models/catalog.server";
import { locateKitchen } from "~/models/kitchen.server";
import { saveSettings, settingsJson } from "~/models/settings.server";
import { dollars, zoneBodySchema } from "~/models/zone-terms.server";
import { deliveryScheduleSchema, unknownZones } from "~/models/delivery-schedule.server";
import { EMAIL_STATUSES, listEmails, resendEmail, systemStatus } from "~/models/system.server";
import { apiError } from "~/utils/api.server";
import { defineFunction } from "./define.server";

const MAX_ZONES = 8;
const POSTAL_ADDRESS_MAX = 300;

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
      address: z.string({ invalid_type_error: "The kitchen's address must be text" }).trim().max(200, "At most 200 characters").nullable().optional(),
    }),
    zones: z
      .array(zoneBodySchema, { required_error: "Zones are required", invalid_type_error: "Zones must be a list" })
      .min(1, "Keep at least one zone: without one the shop delivers nowhere")
      .max(MAX_ZONES, `At most ${MAX_ZONES} zones`),
    /** The delivery schedule (decision 100); left out, the saved one stays. */
    delivery: deliveryScheduleSchema.optional(),
    /** The postal address in every email's footer (decision 101); left out, the saved one stays; "" or null clears it. */
    postalAddress: z
      .string({ invalid_type_error: "The postal address must be text" })
      .trim()
      .max(POSTAL_ADDRESS_MAX, `At most ${POSTAL_ADDRESS_MAX} characters`)
      .nullable()
      .optional(),
  })
  .superRefine((body, context) => {
    for (const name of body.delivery
      ? unknownZones(
          body.delivery,
          body.zones.map((zone) => zone.name),
        )
      : []) {
      context.addIssue({ code: "custom", path: ["delivery", "zoneDays", name], message: `No zone is called "${name}"` });
    }
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
  /** The shop's terms for any operator: {} → { shippingFee, freeShippingThreshold, minimumOrder, kitchen, zones, delivery } (decisions 052, 100). */
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
      // What the body leaves out stays as saved.
      const kept = await shopSettings({ maxAgeMs: 0 });
      const saved = await saveSettings(admin.email, {
        shippingFeeCents: body.shippingFee,
        freeShippingThresholdCents: body.freeShippingThreshold,
        minimumOrderCents: body.minimumOrder,
        kitchen: { lat: body.kitchen.lat, lon: body.kitchen.lon },
        kitchenAddress: body.kitchen.address || null,
        zones: body.zones,
        delivery: body.delivery ?? kept.delivery,
        postalAddress: body.postalAddress === undefined ? (kept.postalAddress ?? null) : body.postalAddress || null,
      });
      return settingsJson(saved);
    },
  }),

  /**
   * The owner finds the kitchen by its street address (decision 097):
   * { address, city, state, zipCode } → { found: true, lat, lon, source
   * ("geocoder", "cache", or "zip": its ZIP code's middle, when the geocoder
   * could not answer), address (one line), zones: [{ name, upToMiles, places:
   * [{ name, miles }] }], beyond }: the area's places each zone would reach from
   * there. Nothing is saved: save-settings saves the coordinates and the
   * address. 422 when the address cannot be placed at all.
   */
  "locate-kitchen": defineFunction({
    access: "settings.manage",
    // The kitchen's street address by the rules checkout takes a customer's by (decision 097): one rule, one message.
    body: addressSchema,
    example: { address: "2400 Main St", city: "Santa Monica", state: "CA", zipCode: "90405" },
    async run({ body }) {
      const found = await locateKitchen(await shopSettings({ maxAgeMs: 0 }), body);
      if (!found) {
        return apiError(422, "We could not find that address, nor its ZIP code. Check it, or type the kitchen's latitude and longitude.", {
          fieldErrors: { address: "Not found: check the street, city and ZIP code" },
        });
      }
      return found;
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
