import type { Preparation, PreparationOrder } from "@shop/orders";

/** "2 × Banana Blast, 3 × Chocolate Mini Bites" */
export const itemsText = (order: PreparationOrder) => order.items.map((item) => `${item.quantity} × ${item.name}`).join(", ");

const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** "Standard zone (up to 10 mi)"; a zone the settings no longer name has no distance. */
export const zoneTitle = (zone: Preparation["zones"][number]) =>
  `${capitalised(zone.name)} zone${zone.up_to_miles === null ? "" : ` (up to ${zone.up_to_miles} mi)`}`;
