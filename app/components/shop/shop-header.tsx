import { Link, useLocation } from "@remix-run/react";
import { useCart } from "~/components/cart/cart-context";
import { ArrowLeftIcon, CartIcon, TruckIcon } from "~/components/icons";
import { Logo } from "~/components/logo";
import { withSearchParam } from "~/lib/url";

export function ShopHeader() {
  const { totals } = useCart();
  const location = useLocation();
  const count = totals.itemCount;
  return (
    <header className="shop-header">
      <div className="container shop-header__inner">
        <Link to="/" className="button button--ghost button--small">
          <ArrowLeftIcon /> Back to Home
        </Link>
        <Logo className="shop-header__logo" />
        <span className="badge badge--mint shop-header__badge">
          <TruckIcon /> Free shipping on orders over $50
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
      </div>
    </header>
  );
}
