/**
 * The shipping form's fields (requirements §3), declared once: each one's
 * label and input (the checkout page draws them in this order), whether it
 * says who to deliver to (the contact block every reader lays out itself),
 * and whether a forgotten order keeps it. Browser-safe and free of zod; the
 * admin's printed pages read what the server built with it. Each field's
 * rule is in checkout-form.ts, whose schema must name exactly these fields.
 *
 * A field added here reaches, with no change of their own: the checkout
 * page, the order's insert, every statement that reads who an order goes to
 * (shippingSelect, and the paid order's RETURNING), the kitchen's email, the
 * packing slips and the owner's customer details (as a note: "Gift message:
 * …"), a customer's export and their erasure.
 */
import type { CustomerDetails, CustomerNote, StoredShipping } from "~/lib/orders";

type FieldTerms = {
  label: string;
  /** Its input on the checkout page: what the browser may fill it with, and the keyboard a phone shows. */
  input: { autoComplete: string; type?: "email" | "tel"; inputMode?: "email" | "tel" | "numeric" };
  /** Part of who to deliver to (name, email, phone, address): laid out by each reader, not listed as a note. */
  contact?: true;
  /** Kept when the customer is forgotten: where the order went, to the town (the zones' and the days' figures). */
  keptWhenForgotten?: true;
};

export const SHIPPING_FIELDS = {
  firstName: { label: "First name", input: { autoComplete: "given-name" }, contact: true },
  lastName: { label: "Last name", input: { autoComplete: "family-name" }, contact: true },
  email: { label: "Email", input: { autoComplete: "email", type: "email", inputMode: "email" }, contact: true },
  phone: { label: "Phone", input: { autoComplete: "tel", type: "tel", inputMode: "tel" }, contact: true },
  address: { label: "Street address", input: { autoComplete: "street-address" }, contact: true },
  city: { label: "City", input: { autoComplete: "address-level2" }, contact: true, keptWhenForgotten: true },
  state: { label: "State", input: { autoComplete: "address-level1" }, contact: true, keptWhenForgotten: true },
  zipCode: { label: "ZIP code", input: { autoComplete: "postal-code", inputMode: "numeric" }, contact: true, keptWhenForgotten: true },
} as const satisfies Record<string, FieldTerms>;

export type ShippingField = keyof typeof SHIPPING_FIELDS;

/** The form's fields, in its order. */
export const shippingFields = Object.keys(SHIPPING_FIELDS) as ShippingField[];

const terms = (field: ShippingField): FieldTerms => SHIPPING_FIELDS[field];

/** The fields a forgotten order does not keep (customer-data.server.ts). */
export type ErasedShippingField = {
  [Field in ShippingField]: (typeof SHIPPING_FIELDS)[Field] extends { keptWhenForgotten: true } ? never : Field;
}[ShippingField];
export const erasedShippingFields = shippingFields.filter((field) => !terms(field).keptWhenForgotten) as ErasedShippingField[];

/**
 * Whatever the customer wrote on the form beyond who to deliver to, as
 * "label: text" lines: the kitchen's email, the packing slips and the owner's
 * customer details show them after the contact block (none today: every
 * field is contact).
 */
export function customerNotes(order: StoredShipping): CustomerNote[] {
  return shippingFields.flatMap((field) => {
    const text = order[field];
    return terms(field).contact || !text ? [] : [{ label: terms(field).label, text }];
  });
}

/**
 * An order's columns of the form, for a Prisma select: every statement that
 * reads who an order goes to selects all of them, and one the table does not
 * have fails the typecheck (Prisma refuses a select of an unknown field).
 */
export const shippingSelect = Object.fromEntries(shippingFields.map((field) => [field, true])) as Record<ShippingField, true>;

/** The form's fields as an order stores them, and nothing else of `values`: an optional field left empty is null. */
export function storedShipping(values: { [Field in ShippingField]?: string | null }): StoredShipping {
  // Field by field from the form's own list, so the object has exactly its keys (Object.fromEntries cannot say so).
  return Object.fromEntries(shippingFields.map((field) => [field, values[field] ?? null])) as StoredShipping;
}

/** Who an order goes to, as the owner's details and the packing slips have it: the form's fields as stored, and its notes. */
export function customerDetailsOf(order: StoredShipping): CustomerDetails {
  return { ...storedShipping(order), notes: customerNotes(order) };
}
