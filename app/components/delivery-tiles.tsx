import { IconTiles, type IconTile } from "~/components/icon-tiles";
import { BoxIcon, ClockIcon, SnowflakeIcon, TruckIcon } from "~/components/icons";
import { FREE_SHIPPING_THRESHOLD_CENTS, MINIMUM_ORDER_CENTS, SHIPPING_CENTS } from "~/lib/cart";
import { DELIVERY_RADIUS_MILES } from "~/lib/delivery-zones";
import { formatCents, formatWholeDollars } from "~/lib/money";

/**
 * What delivery promises (spec §1, §2): the landing page's locations section
 * shows the first three tiles in a compact row, the shop's delivery section
 * all four. The figures come from the rules the server applies.
 */
const tiles: IconTile[] = [
  {
    icon: ClockIcon,
    title: "2-3 business days",
    text: "Delivered across West LA and the South Bay, shipped within 24 hours of your order.",
  },
  {
    icon: SnowflakeIcon,
    title: "Insulated frozen packaging",
    text: "Every order travels in an insulated box with ice packs, so it arrives frozen solid.",
  },
  {
    icon: TruckIcon,
    title: `Free shipping over ${formatWholeDollars(FREE_SHIPPING_THRESHOLD_CENTS)}`,
    text:
      `A flat ${formatCents(SHIPPING_CENTS)} below that. Orders start at ${formatCents(MINIMUM_ORDER_CENTS)}, ` +
      `and we deliver up to ${DELIVERY_RADIUS_MILES} miles from our kitchen.`,
  },
  {
    icon: BoxIcon,
    title: "Store in the freezer",
    text: "Keep frozen and enjoy straight from the freezer: they won't melt in your hand.",
  },
];

export function DeliveryTiles({ compact = false }: { compact?: boolean }) {
  return compact ? (
    <IconTiles tiles={tiles.slice(0, 3)} className="info-tiles info-tiles--compact" />
  ) : (
    <IconTiles tiles={tiles} className="info-tiles" />
  );
}
