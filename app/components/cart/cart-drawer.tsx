import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useCart, type CartPriceView } from "~/components/cart/cart-context";
import { CartForm } from "~/components/cart/cart-form";
import { FreeShippingHint } from "~/components/free-shipping-hint";
import { AllergenLine } from "~/components/product/allergen-line";
import { thumbnailSources } from "~/components/product-image";
import { CartIcon, CloseIcon, MinusIcon, PlusIcon, TrashIcon } from "~/components/icons";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { formatCents } from "~/lib/money";
import { withSearchParam } from "~/lib/url";

/**
 * The cart drawer (requirements §2). Its open state is the URL (`?cart=open`), so it
 * opens from a plain link without JavaScript and closes with the back button.
 * Every figure in it is the server's (decision 051): it renders them and computes
 * no money.
 */
export function CartDrawer() {
  const { lines, price, error, pending } = useCart();
  const goneLines = price?.unavailable.filter((line) => line.reason === "gone") ?? [];
  const location = useLocation();
  const navigate = useNavigate();
  const closeHref = withSearchParam(location, "cart", null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    document.body.classList.add("is-locked");
    return () => {
      document.body.classList.remove("is-locked");
      previouslyFocused?.focus?.();
    };
  }, []);

  // A control that goes with its line (its Remove, or "Remove one" at a quantity of one) leaves the focus
  // on the page behind this modal drawer, where the next Tab starts at the top: it comes back to the drawer.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) panel.current?.focus();
  }, [lines]);

  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") {
        navigate(closeHref, { preventScrollReset: true, replace: true });
        return;
      }
      if (event.key !== "Tab" || !panel.current) return;
      // Keep keyboard focus inside the open drawer.
      const focusable = panel.current.querySelectorAll<HTMLElement>("a[href], button:not([disabled])");
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
    document.addEventListener("keydown", handleKeyDown);
    return () => document.removeEventListener("keydown", handleKeyDown);
  }, [navigate, closeHref]);

  return (
    <div className="drawer">
      <Link to={closeHref} className="drawer__backdrop" preventScrollReset replace aria-hidden="true" tabIndex={-1} />
      <div className="drawer__panel" role="dialog" aria-modal="true" aria-labelledby="cart-title" ref={panel} tabIndex={-1}>
        <header className="drawer__header">
          <h2 id="cart-title">
            <CartIcon /> Your Cart
          </h2>
          <Link to={closeHref} className="icon-button" preventScrollReset replace aria-label="Close cart">
            <CloseIcon />
          </Link>
        </header>

        {error ? (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        ) : null}

        {lines.length === 0 && goneLines.length === 0 ? (
          <div className="drawer__empty">
            <p>Your cart is empty.</p>
            <Link to={closeHref} className="button button--primary" preventScrollReset replace>
              Browse treats
            </Link>
          </div>
        ) : (
          <ul className="cart-lines" aria-label="Items in your cart">
            {lines.map(({ product, quantity }) => (
              <li key={product.id} className="cart-line">
                <img src={product.image} {...thumbnailSources(product.image, 72)} alt={product.imageAlt} width={72} height={54} className="cart-line__image" />
                <div className="cart-line__info">
                  <p className="cart-line__name">{product.name}</p>
                  <p className="cart-line__price">
                    {product.inStock ? (
                      <>
                        {formatCents(product.priceCents)}
                        <LineTotal price={price} productId={product.id} quantity={quantity} pending={pending} />
                      </>
                    ) : (
                      <strong className="sold-out" id={`cart-line-${product.id}-sold-out`}>
                        Sold out: remove it to check out
                      </strong>
                    )}
                  </p>
                  <AllergenLine allergy={product.allergy} compact />
                  <div className="stepper" role="group" aria-label={`Quantity of ${product.name}`}>
                    <CartForm change={{ intent: "update", productId: product.id, quantity: quantity - 1 }} keepDrawerOpen>
                      <button type="submit" className="stepper__button" aria-label={`Remove one ${product.name}`}>
                        <MinusIcon />
                      </button>
                    </CartForm>
                    <output className="stepper__value" aria-live="polite" aria-label={`${product.name} quantity`}>
                      {quantity}
                    </output>
                    {/* A sold-out line may only shrink (/cart refuses more): its + is disabled and points to the line's "Sold out" text. */}
                    <CartForm change={{ intent: "update", productId: product.id, quantity: quantity + 1 }} keepDrawerOpen>
                      <button
                        type="submit"
                        className="stepper__button"
                        aria-label={`Add one more ${product.name}`}
                        aria-describedby={product.inStock ? undefined : `cart-line-${product.id}-sold-out`}
                        disabled={quantity >= MAX_LINE_QUANTITY || !product.inStock}
                      >
                        <PlusIcon />
                      </button>
                    </CartForm>
                  </div>
                </div>
                <CartForm change={{ intent: "remove", productId: product.id }} keepDrawerOpen className="cart-line__remove">
                  <button type="submit" className="icon-button" aria-label={`Remove ${product.name} from cart`}>
                    <TrashIcon />
                  </button>
                </CartForm>
              </li>
            ))}
            {goneLines.map((line) => (
              <li key={line.productId} className="cart-line cart-line--gone">
                <div className="cart-line__info">
                  <p className="cart-line__name">{line.name ?? "An item we no longer sell"}</p>
                  <p className="cart-line__price">
                    <strong className="sold-out">No longer sold: remove it to check out</strong>
                  </p>
                </div>
                <CartForm change={{ intent: "remove", productId: line.productId }} keepDrawerOpen className="cart-line__remove">
                  <button
                    type="submit"
                    className="icon-button"
                    aria-label={line.name ? `Remove ${line.name} from cart` : "Remove the item we no longer sell from cart"}
                  >
                    <TrashIcon />
                  </button>
                </CartForm>
              </li>
            ))}
          </ul>
        )}

        {lines.length > 0 || goneLines.length > 0 ? (
          <footer className="drawer__footer">
            <CartFigures price={pending ? null : price} stalePrice={price} />
            <CheckoutButton price={pending ? null : price} />
            <CartForm change={{ intent: "clear" }} keepDrawerOpen className="drawer__clear">
              <button type="submit" className="link-button">
                Clear cart
              </button>
            </CartForm>
          </footer>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The server's figures for the cart. `price` is null while a change is on its
 * way: the total then says "Updating…" (aria-busy, so a screen reader waits
 * for the answer), and the notices of the last answer stay, dimmed.
 */
function CartFigures({ price, stalePrice }: { price: CartPriceView; stalePrice: CartPriceView }) {
  const shown = price ?? stalePrice;
  const updating = price === null;
  return (
    <div className={`drawer__figures ${updating ? "drawer__figures--updating" : ""}`} aria-live="polite" aria-busy={updating}>
      <div className="drawer__total">
        <span>Total</span>
        <strong data-testid="cart-total">{price ? formatCents(price.subtotalCents) : "Updating…"}</strong>
      </div>
      {shown ? (
        <>
          <p className="drawer__shipping" data-testid="cart-shipping">
            {shown.shippingCents > 0 ? `+ ${formatCents(shown.shippingCents)} shipping` : "Free shipping"}
          </p>
          <FreeShippingHint hint={shown.freeShippingHint} stale={updating} />
          {!shown.meetsMinimum ? <p className="notice notice--warning">Minimum order of {formatCents(shown.minimumCents)} required</p> : null}
        </>
      ) : null}
    </div>
  );
}

/**
 * Checkout, as the server's figures allow: disabled while they are updating,
 * disabled with the server's reason while a line cannot be bought (sold out,
 * gone), and reading "Add $X more" below the minimum (requirements §2).
 */
function CheckoutButton({ price }: { price: CartPriceView }) {
  if (price && !price.checkoutBlocked && price.meetsMinimum) {
    return (
      <Link to="/checkout" className="button button--primary button--block">
        Checkout
      </Link>
    );
  }
  if (price && !price.checkoutBlocked) {
    return (
      <button type="button" className="button button--primary button--block" disabled>
        Add {formatCents(price.remainingCents)} more
      </button>
    );
  }
  return (
    <>
      {price?.checkoutBlocked ? (
        <p className="notice notice--error" id="cart-checkout-blocked">
          {price.checkoutBlocked}
        </p>
      ) : null}
      <button
        type="button"
        className="button button--primary button--block"
        disabled
        aria-describedby={price?.checkoutBlocked ? "cart-checkout-blocked" : undefined}
      >
        Checkout
      </button>
    </>
  );
}

/** A line's total as the server priced it; nothing while this line's quantity is still on its way. */
function LineTotal({ price, productId, quantity, pending }: { price: CartPriceView; productId: string; quantity: number; pending: boolean }) {
  const priced = price?.lines.find((line) => line.productId === productId);
  if (!priced || priced.quantity !== quantity || quantity === 1) return null;
  return (
    <span className={`cart-line__total ${pending ? "cart-line__total--stale" : ""}`} data-testid="cart-line-total">
      {" "}
      · {quantity} for {formatCents(priced.lineTotalCents)}
    </span>
  );
}
