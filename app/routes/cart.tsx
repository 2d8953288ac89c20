import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { cartFormSchema, loadCartLines, updateCart } from "~/models/cart.server";
import { priceCart } from "~/models/pricing.server";
import { commitCartSession, getCartSession } from "~/utils/cart-session.server";
import { readFormData } from "~/utils/forms.server";
import { safeRedirectPath, wantsHtml } from "~/utils/http.server";
import { sendOrFail } from "~/lib/request-failure";
import { cartUnavailable } from "~/lib/messages";
import { describeError } from "~/utils/errors.server";
import { answeringDatabaseFailures } from "~/utils/api.server";
import { BUSY_HEADERS, shouldRetryLater } from "~/utils/db.server";

/**
 * The cart's one action route (intents add, update, remove, clear, restore).
 * Plain form posts are redirected back to the page they came from; fetchers
 * get JSON: the new lines and the server's figures for them (pricing.server.ts). On any error the cart is left exactly as it was.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answeringDatabaseFailures("The cart", async () => {
    const formData = await readFormData(request);
    const backTo = safeRedirectPath(formData.get("redirectTo"), "/shop");
    const { session, items } = await getCartSession(request);

    const parsed = cartFormSchema.safeParse(Object.fromEntries(formData));
    let retryLater = false;
    const result = parsed.success
      ? await updateCart(items, parsed.data).catch((error: unknown) => {
          // The catalogue could not be read: the cart stays as it was, and the visitor is told (503 while the database is busy or away).
          retryLater = shouldRetryLater(error);
          if (retryLater) console.warn("Cart change found the database busy or away", describeError(error));
          else console.error("Cart change failed", describeError(error));
          return { ok: false, error: cartUnavailable } as const;
        })
      : ({ ok: false, error: parsed.error.issues[0]?.message ?? "Invalid cart request." } as const);

    if (result.ok) session.set("items", result.items);

    if (wantsHtml(request)) {
      if (!result.ok) session.flash("flash", { kind: "error", message: result.error });
      else if (result.added) session.flash("flash", result.added);
      // Back to the shop's card that was added from (its id), not to the top of
      // the page; a product's own page has its button at the top already.
      const added = result.ok && result.added?.kind === "added" ? result.added : null;
      const target = added && new URL(backTo, request.url).pathname === "/shop" ? `${backTo}#product-${added.productId}` : backTo;
      return redirect(target, { headers: { "Set-Cookie": await commitCartSession(session) } });
    }

    if (!result.ok) {
      return json({ ok: false as const, error: result.error }, retryLater ? { status: 503, headers: BUSY_HEADERS } : { status: 400 });
    }
    // The new cart's lines and the server's figures for them, as the root loader gives them.
    const [lines, price] = await Promise.all([loadCartLines(result.items), priceCart(result.items)]);
    return json({ ok: true as const, lines, price }, { headers: { "Set-Cookie": await commitCartSession(session) } });
  });
}

/** With JavaScript: a change that gets no answer comes back as a RequestFailed for the cart to report. */
export function clientAction({ serverAction }: ClientActionFunctionArgs) {
  return sendOrFail(() => serverAction<typeof action>());
}

export function loader() {
  return redirect("/shop?cart=open");
}
