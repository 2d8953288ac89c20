import type { SerializeFrom } from "@remix-run/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/checkout/route";
import { action as draftAction } from "~/routes/checkout_.draft";
import { db } from "~/utils/db.server";
import { browser, cartClient, readJson, shipping, uniqueEmail, type Browser } from "../utils";

/**
 * The checkout's draft (decision 040): what was typed survives a refresh, and
 * a fault of the shop half-way through an action answers the form as sent,
 * with the spec's message, instead of an error page.
 */

type LoaderJson = SerializeFrom<typeof checkoutLoader>;
type StateJson = Extract<SerializeFrom<typeof checkoutAction>, { values: unknown }>;

afterEach(() => {
  vi.restoreAllMocks();
});

async function shopper() {
  const visitor = browser();
  expect((await cartClient(visitor).post({ intent: "add", productId: "bites-variety", quantity: "3" })).status).toBe(200);
  return visitor;
}

async function reopen(visitor: Browser) {
  const response = await visitor.get(checkoutLoader, "/checkout");
  expect(response.status).toBe(200);
  return (await readJson<LoaderJson>(response)).checkout!;
}

describe("the checkout's draft", () => {
  it("keeps what a quiet save carried, and never the decisions a save cannot make", async () => {
    const visitor = await shopper();
    const email = uniqueEmail("draft");
    const response = await visitor.post(draftAction, "/checkout/draft", {
      ...shipping({ email }),
      code: "WELC",
      appliedCode: "WELCOME10",
      checkedAddress: "forged",
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("Set-Cookie")).toMatch(/chillpb_checkout=.*Path=\/checkout.*HttpOnly/i);

    const checkout = await reopen(visitor);
    expect(checkout.values).toMatchObject({ email, firstName: shipping().firstName, code: "WELC" });
    // A save carries what was typed; only the checkout's own posts apply a code or check an address.
    expect(checkout.discount).toBeNull();
    expect(checkout.delivery).toBeNull();
  });

  it("keeps what a post decided: a refresh shows the checked address and the applied code again", async () => {
    const visitor = await shopper();
    const email = uniqueEmail("draft-post");
    await visitor.post(checkoutAction, "/checkout", { intent: "apply-discount", ...shipping({ email }), code: "WELCOME10" });
    await visitor.post(checkoutAction, "/checkout", { intent: "check-delivery", ...shipping({ email }), code: "", appliedCode: "WELCOME10" });
    const checkout = await reopen(visitor);
    expect(checkout.values.email).toBe(email);
    expect(checkout.discount?.code).toBe("WELCOME10");
    expect(checkout.delivery?.ok).toBe(true);
  });

  it("is dropped once the order is placed (the order holds the details)", async () => {
    const visitor = await shopper();
    const fields = { ...shipping({ email: uniqueEmail("draft-placed") }), code: "" };
    const checked = await readJson<StateJson>(await visitor.post(checkoutAction, "/checkout", { intent: "check-delivery", ...fields }));
    const placed = await visitor.post(checkoutAction, "/checkout", {
      intent: "place-order",
      ...fields,
      checkedAddress: checked.delivery!.addressKey,
      quotedTotalCents: String(checked.summary.totalCents),
    });
    expect(placed.status).toBe(200);
    expect(placed.headers.getSetCookie().some((cookie) => /^chillpb_checkout=.*Max-Age=0/i.test(cookie))).toBe(true);
  });
});

describe("a fault of the shop half-way through an action", () => {
  it("answers the form as sent with the spec's discount Error, not an error page", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const visitor = await shopper();
    const email = uniqueEmail("fault");
    vi.spyOn(db.discountCode, "findUnique").mockRejectedValueOnce(new Error("Timed out fetching a new connection from the pool"));
    const response = await visitor.post(checkoutAction, "/checkout", { intent: "apply-discount", ...shipping({ email }), code: "WELCOME10" }, { html: true });
    expect(response.status).toBe(500);
    const state = await readJson<StateJson>(response);
    expect(state.message).toEqual({ title: "Error", description: "Could not validate discount code. Please try again.", destructive: true });
    expect(state.values).toMatchObject({ email, code: "WELCOME10", address: shipping().address });
    // ... and nothing typed reaches the log line.
    expect(JSON.stringify(vi.mocked(console.error).mock.calls)).not.toContain(email);
  });
});
