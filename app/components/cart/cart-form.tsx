import { useLocation } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useCart, type CartProduct } from "~/components/cart/cart-context";
import type { CartChange } from "~/lib/cart";
import { withSearchParam } from "~/lib/url";

/**
 * A plain form posting one cart change to /cart, so it works without
 * JavaScript (the server redirects back here). Once the page is hydrated the
 * submit is intercepted and applied optimistically instead, with no reload.
 */
export function CartForm({
  change,
  product,
  keepDrawerOpen = false,
  className,
  children,
}: {
  change: CartChange;
  product?: CartProduct;
  keepDrawerOpen?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const cart = useCart();
  const location = useLocation();
  const backTo = withSearchParam(location, "cart", keepDrawerOpen ? "open" : null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    if (!cart.enhanced) return;
    event.preventDefault();
    cart.change(change, product);
  }

  return (
    <form method="post" action="/cart" onSubmit={handleSubmit} className={className}>
      {Object.entries(change).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={String(value)} />
      ))}
      <input type="hidden" name="redirectTo" value={backTo} />
      {children}
    </form>
  );
}
