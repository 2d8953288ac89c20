import { z } from "zod";
import { centsToDollars, dollarsToCents, formatCents } from "~/lib/money";
import { allergens, organicIngredients } from "~/lib/product-facts";
import { auditTrail } from "~/models/audit.server";
import { MAX_PICTURE_BYTES, preparePicture } from "~/models/product-images.server";
import { nutritionFactsSchema } from "~/models/product-facts.server";
import {
  createProduct,
  MAX_PRICE_CENTS,
  MIN_PRICE_CENTS,
  productJson,
  productsForAdmin,
  replacePicture,
  setArchived,
  updateProduct,
} from "~/models/products.server";
import { apiError } from "~/utils/api.server";
import { defineFunction } from "./define.server";

const [firstIngredient, ...otherIngredients] = organicIngredients;
const [firstAllergen, ...otherAllergens] = allergens;
const ingredientList = z
  .array(z.enum([firstIngredient!, ...otherIngredients], { errorMap: () => ({ message: "Choose ingredients from the list" }) }), {
    invalid_type_error: "Ingredients must be a list",
  })
  .min(1, "Tick at least one ingredient");
const allergenList = z.array(z.enum([firstAllergen!, ...otherAllergens], { errorMap: () => ({ message: "Choose allergens from the list" }) }), {
  invalid_type_error: "Allergens must be a list",
});
const category = z.enum(["bars", "bites"], { errorMap: () => ({ message: "Choose bars or bites" }) });

const productId = z.string({ required_error: "is required", invalid_type_error: "must be text" }).min(1, "is required").max(64);

/** A text field update-product may change: optional, but never empty. */
const editedText = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text` })
    .trim()
    .min(1, `${label} cannot be empty`)
    .max(max, `${label} can be at most ${max} characters`);

const updateSchema = z
  .object({
    productId,
    inStock: z.boolean({ invalid_type_error: "must be true or false" }).optional(),
    price: z
      .number({ invalid_type_error: "Price must be a number of dollars" })
      // A price with at most 2 decimals comes back unchanged from a round trip through cents.
      .refine((dollars) => Number.isFinite(dollars) && Math.abs(centsToDollars(dollarsToCents(dollars)) - dollars) < 1e-8, "Price can have at most 2 decimals")
      .refine(
        (dollars) => dollarsToCents(dollars) >= MIN_PRICE_CENTS && dollarsToCents(dollars) <= MAX_PRICE_CENTS,
        `Price must be between ${formatCents(MIN_PRICE_CENTS)} and ${formatCents(MAX_PRICE_CENTS)}`,
      )
      .optional(),
    name: editedText("Name", 80).optional(),
    description: editedText("Description", 500).optional(),
    category: category.optional(),
    flavor: editedText("Flavour", 40).optional(),
    imageAlt: editedText("Picture description", 200).optional(),
    ingredients: ingredientList.optional(),
    allergens: allergenList.optional(),
    /** Its own label (decision 096), or null to state none. */
    nutrition: nutritionFactsSchema.nullable().optional(),
    stock: z
      .number({ invalid_type_error: "Stock must be a whole number, or null for no limit" })
      .int("Stock must be a whole number")
      .min(0, "Stock cannot be negative")
      .max(100_000, "Stock can be at most 100,000")
      .nullable()
      .optional(),
    lowStockThreshold: z
      .number({ invalid_type_error: "Low-stock threshold must be a whole number" })
      .int("Low-stock threshold must be a whole number")
      .min(0, "Low-stock threshold cannot be negative")
      .max(1_000, "Low-stock threshold can be at most 1,000")
      .optional(),
  })
  .refine(({ productId: _id, ...changes }) => Object.values(changes).some((value) => value !== undefined), {
    message: "Send at least one of inStock, price, name, description, category, flavor, imageAlt, ingredients, allergens, nutrition, stock, lowStockThreshold",
  });

/**
 * The whole body's limit: the picture's 5 MB and room for the text fields.
 * server/http-guards.mjs lets a declared body this large through to this
 * route only (UPLOAD_BODY_LIMITS); tests/integration/create-product.test.ts
 * checks the two agree.
 */
export const CREATE_PRODUCT_BODY_BYTES = MAX_PICTURE_BYTES + 256 * 1024;

const PICTURE_TOO_LARGE = "The picture is larger than 5 MB: pictures can be at most 5 MB.";

/** A text field of the new product's form: required, never empty. */
const formText = (label: string, max: number) =>
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

/** The label typed in Add product's form, sent as one JSON text field (decision 096); empty or absent: none stated. */
const nutritionField = z
  .string({ invalid_type_error: "Nutrition must be JSON text" })
  .optional()
  .transform((text, ctx): unknown => {
    if (text === undefined || text.trim() === "" || text.trim() === "null") return null;
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Nutrition must be JSON: { servingGrams, per100g: { … } }" });
      return z.NEVER;
    }
  })
  .pipe(nutritionFactsSchema.nullable());

const formSchema = z.object({
  name: formText("Name", 80),
  description: formText("Description", 500),
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
  category,
  flavor: formText("Flavour", 40),
  ingredients: ingredientList,
  allergens: allergenList,
  nutrition: nutritionField,
  imageAlt: formText("Picture description", 200),
  stock: count("Stock", 100_000, null),
  lowStockThreshold: count("Low-stock threshold", 1_000, 5),
  picture: z.custom<Blob>((value) => value instanceof Blob && value.size > 0, "Choose a picture (JPEG, PNG or WebP, at most 5 MB)"),
});

/** How a refused picture is answered: too many bytes 413, not a picture 415, the rest 400. */
const pictureStatus = { "too-large": 413, "not-a-picture": 415, unreadable: 400, "too-many-pixels": 400, "too-small": 400 } as const;

/** A new picture for a product (replace-product-picture), with its description if it changes. */
const pictureSchema = z.object({
  productId,
  imageAlt: formText("Picture description", 200).optional(),
  picture: formSchema.shape.picture,
});

const archiveSchema = z.object({
  productId,
  archived: z.boolean({ invalid_type_error: "must be true or false" }).default(true),
});

/** The catalogue: the owner's (products.manage) to read, change, add to and archive. */
export const catalogFunctions = {
  /** The owner's catalogue: {} → { products } (requirements §3's fields, price in dollars, each with its change history). */
  "get-products": defineFunction({
    access: "products.manage",
    run: async () => ({ products: await productsForAdmin() }),
  }),

  /**
   * { productId, inStock?, price?, name?, description?, stock?, lowStockThreshold? } → { message, product }.
   * Price in dollars with at most 2 decimals, stored as integer cents; stock a
   * whole number of items left, or null for no limit (decision 063).
   */
  "update-product": defineFunction({
    access: "products.manage",
    body: updateSchema,
    example: { productId: "bar-chocolate-pb", inStock: true, price: 6 },
    async run({ body, admin }) {
      const update = await updateProduct(admin.email, body.productId, {
        inStock: body.inStock,
        priceCents: body.price === undefined ? undefined : dollarsToCents(body.price),
        name: body.name,
        description: body.description,
        category: body.category,
        flavor: body.flavor,
        imageAlt: body.imageAlt,
        ingredients: body.ingredients,
        allergens: body.allergens,
        nutrition: body.nutrition,
        stock: body.stock,
        lowStockThreshold: body.lowStockThreshold,
      });
      if (!update.ok) return apiError(404, "No product with that id.");
      const { product, changed } = update;
      const message =
        changed.length === 0
          ? `${product.name}: nothing to change.`
          : changed.length === 1 && changed[0] === "inStock"
            ? product.inStock
              ? `${product.name} is back in stock.`
              : `${product.name} is now sold out.`
            : `${product.name} saved.`;
      return { message, product: productJson(product, await auditTrail("product", product.id, 20)) };
    },
  }),

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
  "create-product": defineFunction({
    access: "products.manage",
    multipart: {
      limit: CREATE_PRODUCT_BODY_BYTES,
      field: "picture",
      message: PICTURE_TOO_LARGE,
      lists: ["ingredients", "allergens"],
      multiline: ["description"],
    },
    body: formSchema,
    async run({ body: fields, admin }) {
      const picture = await preparePicture(new Uint8Array(await fields.picture.arrayBuffer()));
      if (!picture.ok) return apiError(pictureStatus[picture.reason], `picture: ${picture.message}`, { fieldErrors: { picture: picture.message } });
      const { name, description, price, category, flavor, ingredients, allergens, nutrition, imageAlt, stock, lowStockThreshold } = fields;
      const created = await createProduct(
        admin.email,
        { name, description, priceCents: price, category, flavor, ingredients, allergens, nutrition, imageAlt, stock, lowStockThreshold },
        picture,
      );
      return { message: `${created.name} added to the shop.`, product: productJson(created, await auditTrail("product", created.id, 20)) };
    },
  }),

  /**
   * POST multipart/form-data: productId, picture (a file) and imageAlt
   * (optional: its description, if it changes) → 200 { message, product }, the
   * owner's only (decision 096). The picture is checked as create-product
   * checks one, and refused the same way (400, 413, 415 with fieldErrors).
   */
  "replace-product-picture": defineFunction({
    access: "products.manage",
    multipart: { limit: CREATE_PRODUCT_BODY_BYTES, field: "picture", message: PICTURE_TOO_LARGE },
    body: pictureSchema,
    async run({ body: fields, admin }) {
      const picture = await preparePicture(new Uint8Array(await fields.picture.arrayBuffer()));
      if (!picture.ok) return apiError(pictureStatus[picture.reason], `picture: ${picture.message}`, { fieldErrors: { picture: picture.message } });
      const product = await replacePicture(admin.email, fields.productId, picture, fields.imageAlt);
      if (!product) return apiError(404, "No product with that id.");
      return { message: `${product.name} has its new picture.`, product: productJson(product, await auditTrail("product", product.id, 20)) };
    },
  }),

  /**
   * { productId, archived? } → { message, product }, the owner's only
   * (decision 065). `archived` (default true) takes the product off the shop:
   * it leaves the shop, the landing page and the sitemap, its page says it is
   * no longer sold, carts holding it must remove it, and orders keep it.
   * `archived: false` puts it back on sale. Asking for what already is answers
   * 200 and says so; an unknown id is 404.
   */
  "archive-product": defineFunction({
    access: "products.manage",
    body: archiveSchema,
    example: { productId: "bar-chocolate-pb", archived: false },
    async run({ body, admin }) {
      const result = await setArchived(admin.email, body.productId, body.archived);
      if (!result.ok) return apiError(404, "No product with that id.");
      const { product, changed } = result;
      const message = body.archived
        ? changed
          ? `${product.name} is archived: it is no longer on the shop.`
          : `${product.name} is already archived.`
        : changed
          ? `${product.name} is back on the shop.`
          : `${product.name} is already on the shop.`;
      return { message, product: productJson(product, await auditTrail("product", product.id, 20)) };
    },
  }),
};
