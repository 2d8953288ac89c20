import { Link, useLocation } from "@remix-run/react";
import { useCart } from "~/components/cart/cart-context";
import { CartIcon, TruckIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { FREE_SHIPPING_THRESHOLD_CENTS } from "~/lib/cart";
import { formatWholeDollars } from "~/lib/money";
import { withSearchParam } from "~/lib/url";

/** The shop's header; the product pages lead back to the shop instead of home. */
export function ShopHeader({ back = { to: "/", label: "Back to Home" } }: { back?: { to: string; label: string } }) {
  const { totals } = useCart();
  const location = useLocation();
  const count = totals.itemCount;
  return (
    <PageHeader back={back}>
      <span className="badge badge--mint shop-header__badge">
        <TruckIcon /> Free shipping on orders over {formatWholeDollars(FREE_SHIPPING_THRESHOLD_CENTS)}
      </span>
      <Link
        to={withSearchParam(location, "cart", "open")}
        preventScrollReset
        className="cart-button"
        aria-label={`Open cart, ${count} ${count === 1 ? "item" : "items"}`}
      >
        <CartIcon />
        <span className="cart-button__count" aria-hidden="true" data-testid="cart-count">
          {count}
        </span>
      </Link>
    </PageHeader>
  );
}
