import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { dollarsToCents, formatCents } from "~/lib/money";
import { allergens, organicIngredients } from "~/lib/product-facts";
import { auditTrail } from "~/models/audit.server";
import { MAX_PICTURE_BYTES, preparePicture } from "~/models/product-images.server";
import { createProduct, MAX_PRICE_CENTS, MIN_PRICE_CENTS, productJson } from "~/models/products.server";
import { requireAdmin } from "~/utils/auth.server";
import { apiError, handleFunction } from "~/utils/api.server";
import { parseMultipartForm, readMultipartForm } from "~/utils/uploads.server";

/**
 * The whole body's limit: the picture's 5 MB and room for the text fields.
 * server/http-guards.mjs lets a declared body this large through to this
 * route only (UPLOAD_BODY_LIMITS); tests/integration/create-product.test.ts
 * checks the two agree.
 */
export const CREATE_PRODUCT_BODY_BYTES = MAX_PICTURE_BYTES + 256 * 1024;

const PICTURE_TOO_LARGE = "The picture is larger than 5 MB: pictures can be at most 5 MB.";

const text = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} must be text` })
    .trim()
    .min(1, `${label} cannot be empty`)
    .max(max, `${label} can be at most ${max} characters`);

/** A whole number typed in a form field; empty is `empty`. */
const count = <Empty extends number | null>(label: string, max: number, empty: Empty) =>
  z
    .string({ invalid_type_error: `${label} must be a whole number` })
    .trim()
    .optional()
    .transform((value, ctx): number | Empty => {
      if (value === undefined || value === "") return empty;
      if (!/^\d+$/.test(value)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${label} must be a whole number` });
        return z.NEVER;
      }
      const number = Number(value);
      if (number > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${label} can be at most ${max.toLocaleString("en-US")}` });
        return z.NEVER;
      }
      return number;
    });

const [firstIngredient, ...otherIngredients] = organicIngredients;
const [firstAllergen, ...otherAllergens] = allergens;

const formSchema = z.object({
  name: text("Name", 80),
  description: text("Description", 500),
  price: z
    .string({ required_error: "Price is required" })
    .trim()
    .min(1, "Price is required")
    // Dollars as the owner types them, with at most 2 decimals ("6", "6.5", "$6.50"), the same rule as update-product.
    .regex(/^\$?\d{1,6}(\.\d{1,2})?$/, "Price must be a number of dollars with at most 2 decimals")
    .transform((typed) => dollarsToCents(Number(typed.replace(/^\$/, ""))))
    .refine(
      (cents) => cents >= MIN_PRICE_CENTS && cents <= MAX_PRICE_CENTS,
      `Price must be between ${formatCents(MIN_PRICE_CENTS)} and ${formatCents(MAX_PRICE_CENTS)}`,
    ),
  category: z.enum(["bars", "bites"], { errorMap: () => ({ message: "Choose bars or bites" }) }),
  flavor: text("Flavour", 40),
  ingredients: z
    .array(z.enum([firstIngredient!, ...otherIngredients], { errorMap: () => ({ message: "Choose ingredients from the list" }) }))
    .min(1, "Tick at least one ingredient"),
  allergens: z.array(z.enum([firstAllergen!, ...otherAllergens], { errorMap: () => ({ message: "Choose allergens from the list" }) })),
  imageAlt: text("Picture description", 200),
  stock: count("Stock", 100_000, null),
  lowStockThreshold: count("Low-stock threshold", 1_000, 5),
  picture: z.custom<Blob>((value) => value instanceof Blob && value.size > 0, "Choose a picture (JPEG, PNG or WebP, at most 5 MB)"),
});

/** How a refused picture is answered: too many bytes 413, not a picture 415, the rest 400. */
const pictureStatus = { "too-large": 413, "not-a-picture": 415, unreadable: 400, "too-many-pixels": 400, "too-small": 400 } as const;

/**
 * POST multipart/form-data (the picture is a file) → 200 { message, product },
 * the owner's only (decision 065). Fields: name, description, price (dollars,
 * at most 2 decimals), category (bars | bites), flavor, ingredients (repeated,
 * from the seven), allergens (repeated, optional: the ones the ingredients
 * bring are always declared), imageAlt, stock (optional, empty: no limit),
 * lowStockThreshold (optional, default 5) and picture (JPEG, PNG or WebP, at
 * most 5 MB and 50 megapixels, at least 800 × 600). Errors are { error,
 * fieldErrors }: 400 for a field, 413 for a picture over 5 MB, 415 for a file
 * that is not such a picture (judged by its bytes, not its name).
 */
export function action({ request }: ActionFunctionArgs) {
  return handleFunction("create-product", request, async () => {
    const admin = await requireAdmin(request, "products.manage");
    const form = await readMultipartForm(request, { limit: CREATE_PRODUCT_BODY_BYTES, field: "picture", message: PICTURE_TOO_LARGE });
    const fields = parseMultipartForm(request, form, formSchema, { lists: ["ingredients", "allergens"], multiline: ["description"] });
    const picture = await preparePicture(new Uint8Array(await fields.picture.arrayBuffer()));
    if (!picture.ok) return apiError(pictureStatus[picture.reason], `picture: ${picture.message}`, { fieldErrors: { picture: picture.message } });
    const { name, description, price, category, flavor, ingredients, allergens, imageAlt, stock, lowStockThreshold } = fields;
    const created = await createProduct(
      admin.email,
      { name, description, priceCents: price, category, flavor, ingredients, allergens, imageAlt, stock, lowStockThreshold },
      picture,
    );
    return json({ message: `${created.name} added to the shop.`, product: productJson(created, await auditTrail("product", created.id, 20)) });
  });
}
