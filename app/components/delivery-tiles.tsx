import { IconTiles, type IconTile } from "~/components/icon-tiles";
import { BoxIcon, ClockIcon, SnowflakeIcon, TruckIcon } from "~/components/icons";
import { useShopTerms } from "~/components/shop-terms";
import { formatCents, formatWholeDollars } from "~/lib/money";
import type { ShopTerms } from "~/lib/shop-settings";
import { scheduleSentence, scheduleTitle } from "~/lib/delivery-schedule";

/**
 * What delivery promises (requirements §1, §2): the landing page's locations section
 * shows the first three tiles in a compact row, the shop's delivery section
 * all four. The figures are the owner's settings, which the server applies.
 */
const tilesFor = (terms: ShopTerms): IconTile[] => [
  {
    icon: ClockIcon,
    title: scheduleTitle(terms.delivery),
    // What the owner's schedule says (decision 100): "Choose your delivery day at checkout: Monday to Friday, …".
    text: `${scheduleSentence(terms.delivery)}, across West LA and the South Bay.`,
  },
  {
    icon: SnowflakeIcon,
    title: "Insulated frozen packaging",
    text: "Every order travels in an insulated box with ice packs, so it arrives frozen solid.",
  },
  {
    icon: TruckIcon,
    title: `Free shipping over ${formatWholeDollars(terms.freeShippingThresholdCents)}`,
    text:
      `A flat ${formatCents(terms.shippingFeeCents)} below that. Orders start at ${formatCents(terms.minimumOrderCents)}, ` +
      `and we deliver up to ${terms.radiusMiles} miles from our kitchen.`,
  },
  {
    icon: BoxIcon,
    title: "Store in the freezer",
    text: "Keep frozen and enjoy straight from the freezer: they won't melt in your hand.",
  },
];

export function DeliveryTiles({ compact = false }: { compact?: boolean }) {
  const tiles = tilesFor(useShopTerms());
  return compact ? <IconTiles tiles={tiles.slice(0, 3)} className="info-tiles info-tiles--compact" /> : <IconTiles tiles={tiles} className="info-tiles" />;
}
