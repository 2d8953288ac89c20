import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useCart, type AddedNotice } from "~/components/cart/cart-context";
import { CheckIcon, CloseIcon } from "~/components/icons";
import { formatCents } from "~/lib/money";
import { withSearchParam } from "~/lib/url";
import type { RootLoader } from "~/root";

const POPUP_DURATION_MS = 4000;

/**
 * 'Added to cart!' (requirements §2). With JavaScript it follows the cart's last add;
 * after a plain form post it comes from the server's one-time flash. It closes
 * itself after 4 s (with JavaScript; the time stands still while the pointer or
 * focus is on it), on its close button, or on either action.
 */
export function AddedToCartPopup() {
  const cart = useCart();
  const flashed = useFlashedAdd();
  const notice = cart.added ?? flashed;
  const location = useLocation();
  const [closedKey, setClosedKey] = useState<number | null>(null);
  const noticeKey = notice?.key ?? null;
  const visible = noticeKey !== null && noticeKey !== closedKey;
  const popup = useRef<HTMLDivElement>(null);
  // While the pointer or keyboard focus is on the popup, its 4 seconds wait (WCAG 2.2.1).
  const [held, setHeld] = useState(false);

  useEffect(() => {
    if (noticeKey === null || !cart.enhanced) return;
    // The button just pressed stays in view above the popup (the stylesheet's scroll padding allows for it).
    const pressed = document.activeElement;
    if (pressed instanceof HTMLElement && pressed !== document.body) pressed.scrollIntoView({ block: "nearest" });
  }, [noticeKey, cart.enhanced]);

  useEffect(() => {
    if (noticeKey === null || !cart.enhanced || held) return;
    const timer = window.setTimeout(() => setClosedKey(noticeKey), POPUP_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [noticeKey, cart.enhanced, held]);

  useEffect(() => {
    const element = popup.current;
    if (!visible || !element) return;
    const hold = () => setHeld(true);
    const releaseFocus = (event: FocusEvent) => {
      if (!element.contains(event.relatedTarget as Node | null)) setHeld(element.matches(":hover"));
    };
    const releasePointer = () => setHeld(element.contains(document.activeElement));
    element.addEventListener("focusin", hold);
    element.addEventListener("focusout", releaseFocus);
    element.addEventListener("mouseenter", hold);
    element.addEventListener("mouseleave", releasePointer);
    return () => {
      element.removeEventListener("focusin", hold);
      element.removeEventListener("focusout", releaseFocus);
      element.removeEventListener("mouseenter", hold);
      element.removeEventListener("mouseleave", releasePointer);
      setHeld(false);
    };
  }, [visible, noticeKey, cart.enhanced]);

  if (!notice || !visible) return null;
  const close = () => setClosedKey(notice.key);

  const content = (
    <>
      <div className="popup__header">
        <span className="popup__check" aria-hidden="true">
          <CheckIcon />
        </span>
        <h2 id="added-title">Added to cart!</h2>
        {cart.enhanced ? (
          <Link to={withSearchParam(location, "cart", null)} replace preventScrollReset className="icon-button" aria-label="Close" onClick={close}>
            <CloseIcon />
          </Link>
        ) : null}
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
        <Link to={withSearchParam(location, "cart", "open")} replace preventScrollReset className="button button--ghost" onClick={close}>
          View Cart
        </Link>
        <Link to="/checkout" className="button button--primary" onClick={close}>
          Checkout
        </Link>
      </div>
    </>
  );

  if (cart.enhanced) {
    return (
      <div className="popup" role="status" aria-labelledby="added-title" ref={popup}>
        {content}
      </div>
    );
  }
  // Without JavaScript a link to close it would reload the page at its top, away from the
  // product just added: a <details> left open closes in place instead (a closed one is not shown).
  return (
    <details open className="popup dismissible">
      <summary className="icon-button dismissible__close" aria-label="Close">
        <CloseIcon />
      </summary>
      <div role="status" aria-labelledby="added-title">
        {content}
      </div>
    </details>
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
