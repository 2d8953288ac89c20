import { Link, useLocation } from "@remix-run/react";
import { useCart } from "~/components/cart/cart-context";
import { CartIcon, TruckIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { useShopTerms } from "~/components/shop-terms";
import { formatWholeDollars } from "~/lib/money";
import { cartButtonLabel } from "~/lib/cart";
import { withSearchParam } from "~/lib/url";

/** The shop's header; the product pages lead back to the shop instead of home. */
export function ShopHeader({ back = { to: "/", label: "Back to Home" } }: { back?: { to: string; label: string } }) {
  const { itemCount: count } = useCart();
  const location = useLocation();
  const terms = useShopTerms();
  return (
    <PageHeader back={back}>
      <span className="badge badge--mint shop-header__badge">
        <TruckIcon /> Free shipping on orders over {formatWholeDollars(terms.freeShippingThresholdCents)}
      </span>
      <Link to={withSearchParam(location, "cart", "open")} preventScrollReset className="cart-button" aria-label={cartButtonLabel(count)}>
        <CartIcon />
        <span className="cart-button__count" aria-hidden="true" data-testid="cart-count">
          {count}
        </span>
      </Link>
    </PageHeader>
  );
}
