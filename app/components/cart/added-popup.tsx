import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useCart, type AddedNotice } from "~/components/cart/cart-context";
import { CheckIcon, CloseIcon } from "~/components/icons";
import { formatCents } from "~/lib/money";
import { withSearchParam } from "~/lib/url";
import type { RootLoader } from "~/root";

const POPUP_DURATION_MS = 4000;

/**
 * 'Added to cart!' (spec §2). With JavaScript it follows the cart's last add;
 * after a plain form post it comes from the server's one-time flash. It closes
 * itself after 4 s (with JavaScript), on its close button, or on either action.
 */
export function AddedToCartPopup() {
  const cart = useCart();
  const flashed = useFlashedAdd();
  const notice = cart.added ?? flashed;
  const location = useLocation();
  const [closedKey, setClosedKey] = useState<number | null>(null);
  const noticeKey = notice?.key ?? null;

  useEffect(() => {
    if (noticeKey === null || !cart.enhanced) return;
    const timer = window.setTimeout(() => setClosedKey(noticeKey), POPUP_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [noticeKey, cart.enhanced]);

  if (!notice || notice.key === closedKey) return null;
  const close = () => setClosedKey(notice.key);

  return (
    <div className="popup" role="status" aria-labelledby="added-title">
      <div className="popup__header">
        <span className="popup__check" aria-hidden="true">
          <CheckIcon />
        </span>
        <h2 id="added-title">Added to cart!</h2>
        <Link
          to={withSearchParam(location, "cart", null)}
          replace
          preventScrollReset
          className="icon-button"
          aria-label="Close"
          onClick={close}
        >
          <CloseIcon />
        </Link>
      </div>
      <div className="popup__body">
        <img src={notice.product.image} alt="" width={64} height={48} />
        <div>
          <p className="popup__name">{notice.product.name}</p>
          <p className="popup__qty">
            Qty: {notice.quantity} × {formatCents(notice.product.priceCents)}
          </p>
        </div>
      </div>
      <div className="popup__actions">
        <Link
          to={withSearchParam(location, "cart", "open")}
          replace
          preventScrollReset
          className="button button--ghost"
          onClick={close}
        >
          View Cart
        </Link>
        <Link to="/checkout" className="button button--primary" onClick={close}>
          Checkout
        </Link>
      </div>
    </div>
  );
}

/** The popup left by a plain (no-JavaScript) add-to-cart post. */
function useFlashedAdd(): AddedNotice | null {
  const root = useRouteLoaderData<RootLoader>("root");
  const flash = root?.cartFlash;
  if (flash?.kind !== "added") return null;
  const line = root?.cart.lines.find((l) => l.product.id === flash.productId);
  return line ? { key: 0, product: line.product, quantity: flash.quantity } : null;
}
