import { describe, expect, it } from "vitest";
import { shippingSchema } from "~/lib/checkout-form";
import { customerDetailsOf, customerNotes, SHIPPING_FIELDS, shippingFields, storedShipping } from "~/lib/shipping-fields";
import { fulfilmentEmail } from "~/services/emails.server";

/** A value for every field of the form that no other part of an email could say by chance. */
const everyField = {
  firstName: "Wilhelmina",
  lastName: "Quaternary",
  email: "wilhelmina.q@example.com",
  phone: "(310) 555-0199",
  address: "7788 Zinnia Terrace",
  city: "Culver City",
  state: "CA",
  zipCode: "90232",
};

describe("the shipping form's fields, declared once", () => {
  it("the schema has a rule for each declared field and no other", () => {
    expect(Object.keys(shippingSchema.shape)).toEqual(shippingFields);
    expect(shippingFields).toEqual(Object.keys(SHIPPING_FIELDS));
  });

  it("an order stores exactly the form's fields, an empty optional one as null", () => {
    const customer = { ...shippingSchema.parse({ ...everyField, phone: "" }), mailbox: "wilhelmina.q@example.com" };
    expect(storedShipping(customer)).toEqual({ ...everyField, phone: null });
  });

  it("today every field says who to deliver to, so no order has notes", () => {
    expect(customerNotes({ ...everyField })).toEqual([]);
    expect(customerDetailsOf({ ...everyField })).toEqual({ ...everyField, notes: [] });
  });

  it("the kitchen's email says every field the customer filled in", async () => {
    const email = await fulfilmentEmail({
      id: "7c0ffee0-0000-4000-8000-000000000000",
      ...everyField,
      subtotalCents: 4000,
      discountCents: 0,
      discountCode: null,
      shippingCents: 0,
      totalCents: 4000,
      deliveryZone: "standard",
      distanceTenths: 52,
      createdAt: new Date("2026-12-01T18:00:00Z"),
      items: [{ name: "Chocolate Crunch", unitPriceCents: 1000, quantity: 4 }],
    });
    for (const field of shippingFields) {
      expect(email.text, field).toContain(everyField[field]);
      expect(email.html, field).toContain(everyField[field]);
    }
  });
});
