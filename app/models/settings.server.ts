import type { Prisma } from "~/generated/prisma/client";
import { recordAudit } from "~/models/audit.server";
import { changeCatalog, readSettings } from "~/models/catalog.server";
import type { ShopSettings } from "~/lib/shop-settings";
import type { DeliverySchedule } from "~/lib/delivery-schedule";
import { centsToDollars } from "~/lib/money";
import { zoneJson, type ZoneJson } from "~/models/zone-terms.server";

/**
 * The owner's changes to the shop's terms (docs/decisions/052). Written with
 * the catalogue's version bump, so every instance prices the next cart and
 * renders the next page on the new terms (the page cache included); orders
 * already placed keep the figures they were placed with (they store them).
 * `settings` has passed save-settings' validation.
 */
export async function saveSettings(actorEmail: string, settings: ShopSettings): Promise<ShopSettings> {
  const row = {
    shippingFeeCents: settings.shippingFeeCents,
    freeShippingThresholdCents: settings.freeShippingThresholdCents,
    minimumOrderCents: settings.minimumOrderCents,
    kitchenLat: settings.kitchen.lat,
    kitchenLon: settings.kitchen.lon,
    kitchenAddress: settings.kitchenAddress ?? null,
    zones: settings.zones as unknown as Prisma.InputJsonValue,
    deliverySchedule: settings.delivery as unknown as Prisma.InputJsonValue,
    postalAddress: settings.postalAddress ?? null,
  };
  return changeCatalog(async (tx) => {
    const before = await readSettings(tx);
    await tx.shopSettings.upsert({ where: { id: 1 }, create: { id: 1, ...row }, update: row });
    const after = await readSettings(tx);
    await recordAudit(tx, { actorEmail, action: "settings.save", subjectType: "settings", subjectId: "shop", before, after });
    return after;
  });
}

/** The shop's terms as get-settings answers them and save-settings takes them back (decision 052): dollars, zones nearest first. */
export type SettingsJson = {
  shippingFee: number;
  freeShippingThreshold: number;
  minimumOrder: number;
  /** `address`: the street address it was found at, or null where the owner set only the coordinates. */
  kitchen: { lat: number; lon: number; address: string | null };
  zones: ZoneJson[];
  /** The delivery schedule (decision 100), as save-settings takes it back. */
  delivery: DeliverySchedule;
  /** In every email's footer, one line or several; null until the owner sets it (decision 101). */
  postalAddress: string | null;
};

export function settingsJson(settings: ShopSettings): SettingsJson {
  return {
    shippingFee: centsToDollars(settings.shippingFeeCents),
    freeShippingThreshold: centsToDollars(settings.freeShippingThresholdCents),
    minimumOrder: centsToDollars(settings.minimumOrderCents),
    kitchen: { lat: settings.kitchen.lat, lon: settings.kitchen.lon, address: settings.kitchenAddress ?? null },
    zones: settings.zones.map(zoneJson),
    delivery: settings.delivery,
    postalAddress: settings.postalAddress ?? null,
  };
}
