import { describe, expect, it } from "vitest";
import { subscribe } from "~/models/newsletter.server";
import { db } from "~/utils/db.server";
import { callFunction, payOrder, placeOrder, readJson, signedInAdmin, uniqueEmail } from "../utils";

/**
 * The shop's postal address (the owner's setting, decision 101) at the foot
 * of the emails customers and subscribers get; the team's own go without it.
 */

const POSTAL = "1234 Abbot Kinney Blvd, Venice, CA 90291";

async function setPostalAddress(postalAddress: string | null) {
  const owner = await signedInAdmin("footer-owner");
  const settings = await readJson<Record<string, unknown>>(await callFunction("get-settings", {}, { cookie: owner.cookie }));
  expect((await callFunction("save-settings", { ...settings, postalAddress }, { cookie: owner.cookie })).status).toBe(200);
}

describe("the emails' footer", () => {
  it("says the shop's postal address in a subscriber's and a customer's emails once the owner has set it, and not in the kitchen's", async () => {
    await setPostalAddress(POSTAL);
    const subscriber = uniqueEmail("footer-subscriber");
    await subscribe(subscriber, "http://shop.test");
    const { orderId, sessionId } = await placeOrder([["bites-variety", 3]]);
    await payOrder(sessionId);

    const welcome = await db.outboxMessage.findFirstOrThrow({ where: { to: subscriber } });
    const orderEmails = await db.outboxMessage.findMany({ where: { orderId } });
    const confirmation = orderEmails.find((email) => email.kind === "order-confirmation")!;
    const kitchen = orderEmails.find((email) => email.kind === "order-fulfilment")!;
    for (const email of [welcome, confirmation]) {
      expect(email.text, email.kind).toMatch(new RegExp(`\\n\\nChill PB · ${POSTAL}$`));
      expect(email.html, email.kind).toContain(POSTAL);
    }
    expect(`${kitchen.text}${kitchen.html}`).not.toContain(POSTAL);

    await setPostalAddress(null);
    const later = uniqueEmail("footer-later");
    await subscribe(later, "http://shop.test");
    const { text, html } = await db.outboxMessage.findFirstOrThrow({ where: { to: later } });
    expect(`${text}${html}`).not.toContain(POSTAL);
  });

  it("keeps an address written on several lines a line each, in both parts", async () => {
    await setPostalAddress("Chill PB\n1234 Abbot Kinney Blvd\nVenice, CA 90291");
    const subscriber = uniqueEmail("footer-lines");
    await subscribe(subscriber, "http://shop.test");
    const { text, html } = await db.outboxMessage.findFirstOrThrow({ where: { to: subscriber } });
    expect(text).toMatch(/Chill PB · Chill PB\n1234 Abbot Kinney Blvd\nVenice, CA 90291$/);
    expect(html).toContain("Chill PB<br/>1234 Abbot Kinney Blvd<br/>Venice, CA 90291");
  });
});
