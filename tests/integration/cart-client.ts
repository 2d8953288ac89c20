import { action } from "~/routes/cart";
import { loader as rootLoader } from "~/root";

/**
 * Drives the /cart action like a browser would: keeps the cart cookie between
 * calls, and posts either as a fetcher (JSON) or as a plain form (redirect).
 */
export function cartClient() {
  let cookie = "";

  function remember(response: Response) {
    const setCookie = response.headers.get("Set-Cookie");
    if (setCookie) cookie = setCookie.split(";")[0] ?? "";
  }

  async function post(fields: Record<string, string>, { html = false } = {}) {
    const request = new Request("http://localhost/cart", {
      method: "POST",
      headers: {
        Cookie: cookie,
        Accept: html ? "text/html,application/xhtml+xml" : "*/*",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(fields),
    });
    const response = await action({ request, params: {}, context: { clientAddress: "127.0.0.1" } });
    remember(response);
    return response;
  }

  /** The cart as the next page load would show it (the root loader). */
  async function page() {
    const request = new Request("http://localhost/shop", { headers: { Cookie: cookie } });
    const response = await rootLoader({ request, params: {}, context: { clientAddress: "127.0.0.1" } });
    remember(response);
    return (await response.json()) as Awaited<ReturnType<Awaited<ReturnType<typeof rootLoader>>["json"]>>;
  }

  async function items() {
    const { cart } = await page();
    return cart.lines.map((line) => [line.product.id, line.quantity] as const);
  }

  return { post, page, items, setCookie: (value: string) => (cookie = value) };
}

/** The JSON a fetcher receives from /cart, loosely typed for assertions. */
export type CartJson = {
  ok: boolean;
  error?: string;
  lines: { quantity: number; product: { id: string; priceCents: number } }[];
};

export async function readCartJson(response: Response) {
  return (await response.json()) as CartJson;
}
