import type { Preparation, PreparationOrder } from "@shop/orders";

/** "2 × Banana Blast, 3 × Chocolate Mini Bites" */
export const itemsText = (order: PreparationOrder) => order.items.map((item) => `${item.quantity} × ${item.name}`).join(", ");

const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** "Standard zone (up to 10 mi)"; a zone the settings no longer name has no distance. */
export const zoneTitle = (zone: Preparation["zones"][number]) =>
  `${capitalised(zone.name)} zone${zone.up_to_miles === null ? "" : ` (up to ${zone.up_to_miles} mi)`}`;

/** The day a Prepare page lists, from its address ("?day=2026-12-10"); null when none (or not a day) is given. */
export function dayParam(params: URLSearchParams) {
  const day = params.get("day");
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

/** Today in the kitchen's time zone, as "YYYY-MM-DD" (the earliest day an order can be moved to). */
export const shopToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
