import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { singleLine } from "~/lib/forms";
import type { ShippingField } from "~/lib/shipping-fields";

const required = (max: number) => singleLine(max).min(1, "Required");

/** The shipping/customer form of requirements §3, shared by the checkout page and simple-checkout: a rule for each of its fields (shipping-fields.ts). */
export const shippingSchema = z.object({
  // Room for long names; past it the form says so (its inputs never cut what is typed).
  firstName: required(100),
  lastName: required(100),
  email: emailSchema,
  phone: z
    .string()
    .trim()
    .max(30, "At most 30 characters")
    .regex(/^[0-9+()\-.\s]*$/, "Enter a valid phone number")
    .optional()
    .transform((value) => value || undefined),
  address: required(120),
  city: required(60),
  state: required(40),
  zipCode: z
    .string({ required_error: "Required" })
    .trim()
    .min(1, "Required")
    .regex(/^\d{5}(-\d{4})?$/, "Enter a 5-digit ZIP code"),
} satisfies Record<ShippingField, z.ZodTypeAny>);

export type Shipping = z.infer<typeof shippingSchema>;
export type FieldErrors = Partial<Record<ShippingField | "code" | "deliveryDay", string>>;

/** What the delivery check needs of the form. */
export const addressSchema = shippingSchema.pick({ address: true, city: true, state: true, zipCode: true });
export const addressFields = Object.keys(addressSchema.shape) as (keyof typeof addressSchema.shape)[];
