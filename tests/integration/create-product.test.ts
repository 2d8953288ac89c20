import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { UPLOAD_BODY_LIMITS } from "../../server/http-guards.mjs";
import { catalogVersion, findProducts, listProducts } from "~/models/catalog.server";
import { CREATE_PRODUCT_BODY_BYTES } from "~/functions/catalog.server";
import { loader as productImage } from "~/routes/product-images.$file";
import { loader as productPage } from "~/routes/shop_.$id/route";
import { loader as sitemap } from "~/routes/sitemap[.]xml";
import { db } from "~/utils/db.server";
import {
  cartClient,
  callFunction,
  callRoute,
  functionHandler,
  checkoutBody,
  jsonRequest,
  placeOrder,
  readCartJson,
  readJson,
  shopRequest,
  signedInAdmin,
  SHOP_ORIGIN,
  type ErrorJson,
} from "../utils";
import { mangoLabel } from "../support/nutrition";

/**
 * The owner adds a product with its picture and archives one (issue 23,
 * item 3; decision 065): create-product's validation (the picture judged by
 * its bytes), its record, the picture's files and how they are served, and
 * what archiving does to the shop, carts and orders.
 */

type ProductJson = {
  id: string;
  name: string;
  price: number;
  category: string;
  image: string;
  archivedAt: string | null;
  description: string;
  flavor: string;
  imageAlt: string;
  facts: { allergens: string[]; advisories: string[]; ingredients: { ingredient: string; detail?: string }[]; nutrition: { per: string } | null } | null;
  nutrition: { servingGrams: number; per100g: Record<string, number> } | null;
  claims: string[];
  history: { action: string; actorEmail: string }[];
};
type AnswerJson = { message: string; product: ProductJson };
type FormErrorJson = ErrorJson & { fieldErrors?: Record<string, string> };

/** A picture made here, in memory: a warm gradient with a dark square, so the crop has something to find. */
async function picture(width: number, height: number, format: "png" | "jpeg" | "webp" = "png", transform?: (image: sharp.Sharp) => sharp.Sharp) {
  const square = await sharp({ create: { width: Math.round(width / 3), height: Math.round(height / 3), channels: 3, background: "#3f2417" } })
    .png()
    .toBuffer();
  let image = sharp({ create: { width, height, channels: 3, background: "#f5b041" } }).composite([{ input: square, gravity: "centre" }]);
  if (transform) image = transform(image);
  return image.toFormat(format).toBuffer();
}

const fields = (overrides: Record<string, string | string[] | null> = {}) => ({
  name: "Mango Tango",
  description: "Ripe mango folded into peanut-butter Greek yogurt, half-dipped in chocolate.",
  price: "6.50",
  category: "bars",
  flavor: "Mango PB",
  ingredients: ["greek-yogurt", "peanut-butter", "honey", "fruit", "chocolate"],
  imageAlt: "A frozen yogurt bar with mango pieces on top, half-dipped in chocolate",
  ...overrides,
});

type Upload = { bytes: Uint8Array; name: string; type: string };

function createRequest(values: Record<string, string | string[] | null>, upload: Upload | null, cookie?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  if (upload) form.append("picture", new Blob([new Uint8Array(upload.bytes)], { type: upload.type }), upload.name);
  return new Request(new URL("/functions/v1/create-product", SHOP_ORIGIN), { method: "POST", body: form, headers: cookie ? { Cookie: cookie } : {} });
}

async function create(values: Record<string, string | string[] | null>, upload: Upload | null, cookie?: string) {
  return callRoute(functionHandler("create-product"), createRequest(values, upload, cookie));
}

const archive = (body: unknown, cookie?: string) =>
  callRoute(functionHandler("archive-product"), jsonRequest("/functions/v1/archive-product", body, { cookie }));

const png = async (width = 1200, height = 900) => ({ bytes: await picture(width, height), name: "mango.png", type: "image/png" });

async function owner() {
  return signedInAdmin("owner", "owner");
}

/** What the shop shows now (as another instance would within a second). */
async function shopIds(category: "bars" | "bites" | null = null) {
  await catalogVersion({ maxAgeMs: 0 });
  return (await listProducts(category)).map((product) => product.id);
}

describe("create-product", () => {
  it("answers 401 without a session and 403 for staff, writing nothing", async () => {
    const upload = await png();
    expect((await create(fields(), upload)).status).toBe(401);
    const staff = await signedInAdmin("staff", "staff");
    const refused = await create(fields(), upload, staff.cookie);
    expect(refused.status).toBe(403);
    expect(await readJson<ErrorJson>(refused)).toEqual({ error: "Only the shop's owner can do this." });
    expect(await db.product.count()).toBe(6);
    expect(await db.productImage.count()).toBe(0);
  });

  it("answers 400 with a message per field for a form with nothing in it, and for a bad price", async () => {
    const { cookie } = await owner();
    const empty = await create({ ingredients: [] }, null, cookie);
    expect(empty.status).toBe(400);
    const { fieldErrors } = await readJson<FormErrorJson>(empty);
    expect(fieldErrors).toMatchObject({
      name: "Name is required",
      description: "Description is required",
      price: "Price is required",
      category: "Choose bars or bites",
      flavor: "Flavour is required",
      ingredients: "Tick at least one ingredient",
      imageAlt: "Picture description is required",
      picture: expect.stringMatching(/Choose a picture/),
    });
    for (const [price, message] of [
      ["6.005", /at most 2 decimals/],
      ["abc", /number of dollars/],
      ["0.10", /between \$0\.50 and \$500\.00/],
      ["500.01", /between/],
    ] as const) {
      const response = await create(fields({ price }), await png(), cookie);
      expect(response.status).toBe(400);
      expect((await readJson<FormErrorJson>(response)).fieldErrors?.price).toMatch(message);
    }
    const stock = await create(fields({ stock: "-3", lowStockThreshold: "lots" }), await png(), cookie);
    expect((await readJson<FormErrorJson>(stock)).fieldErrors).toMatchObject({
      stock: "Stock must be a whole number",
      lowStockThreshold: "Low-stock threshold must be a whole number",
    });
    expect(await db.product.count()).toBe(6);
    expect(await db.productImage.count()).toBe(0);
  });

  it("judges the picture by its bytes: a text file named .png and an SVG are 415, a 6 MB file 413, a huge or tiny picture 400", async () => {
    const { cookie } = await owner();
    const refused = async (upload: Upload, status: number, message: RegExp) => {
      const response = await create(fields(), upload, cookie);
      expect(response.status, upload.name).toBe(status);
      const json = await readJson<FormErrorJson>(response);
      expect(json.fieldErrors?.picture, upload.name).toMatch(message);
      expect(json.error).toMatch(message);
    };
    await refused({ bytes: new TextEncoder().encode("not a picture at all\n".repeat(50)), name: "mango.png", type: "image/png" }, 415, /JPEG, PNG or WebP/);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="orange"/></svg>';
    await refused({ bytes: new TextEncoder().encode(svg), name: "mango.svg", type: "image/svg+xml" }, 415, /JPEG, PNG or WebP/);
    // An SVG under a picture's name and type is still an SVG.
    await refused({ bytes: new TextEncoder().encode(svg), name: "mango.jpg", type: "image/jpeg" }, 415, /JPEG, PNG or WebP/);
    const gif = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#fa0" } })
      .gif()
      .toBuffer();
    await refused({ bytes: gif, name: "mango.png", type: "image/png" }, 415, /JPEG, PNG or WebP/);
    // A PNG's signature on bytes that are not one.
    const forged = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode("just text")]);
    await refused({ bytes: forged, name: "mango.png", type: "image/png" }, 400, /could not be read/);
    const large = new Uint8Array(6 * 1024 * 1024);
    large.set(await picture(1200, 900));
    await refused({ bytes: large, name: "mango.png", type: "image/png" }, 413, /at most 5 MB/);
    // Just over 5 MB: the body is within its limit, the picture is not.
    await refused({ bytes: large.subarray(0, 5 * 1024 * 1024 + 10), name: "mango.png", type: "image/png" }, 413, /at most 5 MB/);
    // 9,000 × 6,000 decodes to 54 megapixels: refused from its header, never decoded.
    await refused({ bytes: await picture(9000, 6000), name: "huge.png", type: "image/png" }, 400, /9000 × 6000 pixels: at most 50 megapixels/);
    await refused({ bytes: await picture(640, 480, "jpeg"), name: "small.jpg", type: "image/jpeg" }, 400, /at least 800 × 600/);
    expect(await db.product.count()).toBe(6);
    expect(await db.productImage.count()).toBe(0);
    expect(await db.auditEntry.count({ where: { action: "product.create" } })).toBe(0);
  });

  it("refuses a declared body over its limit, the same limit the HTTP edge lets through for this route only", async () => {
    expect(UPLOAD_BODY_LIMITS.get("/functions/v1/create-product")).toBe(CREATE_PRODUCT_BODY_BYTES);
    const { cookie } = await owner();
    const request = shopRequest("/functions/v1/create-product", {
      method: "POST",
      cookie,
      contentType: "multipart/form-data; boundary=x",
      headers: { "Content-Length": String(CREATE_PRODUCT_BODY_BYTES + 1) },
      body: "--x--",
    });
    const response = await callRoute(functionHandler("create-product"), request);
    expect(response.status).toBe(413);
    const json = await readJson<FormErrorJson>(response);
    expect(json.fieldErrors?.picture).toMatch(/at most 5 MB/);
    // A JSON body is not this function's.
    const asJson = await callRoute(functionHandler("create-product"), jsonRequest("/functions/v1/create-product", { name: "Mango" }, { cookie }));
    expect(asJson.status).toBe(415);
  });

  it("adds the product last of its range with its facts, its picture at three widths without metadata, and its record", async () => {
    const { cookie, email } = await owner();
    // A phone photo: 1600 × 1200 stored sideways with EXIF orientation 6 (turn a quarter) and a GPS position.
    const photo = await picture(1600, 1200, "jpeg", (image) =>
      image.withExif({ IFD0: { Make: "Phone" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "34/1 2/1 0/1" } }).withMetadata({ orientation: 6 }),
    );
    expect(await sharp(photo).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer) });
    const response = await create(
      fields({ allergens: ["milk"], stock: "24", lowStockThreshold: "4" }),
      { bytes: photo, name: "IMG_0042.JPG", type: "image/jpeg" },
      cookie,
    );
    expect(response.status).toBe(200);
    const { message, product } = await readJson<AnswerJson>(response);
    expect(message).toBe("Mango Tango added to the shop.");
    expect(product).toMatchObject({
      id: "bar-mango-tango",
      name: "Mango Tango",
      price: 6.5,
      category: "bars",
      archivedAt: null,
      image: expect.stringMatching(/^\/product-images\/[0-9a-f]{16}-800\.webp$/),
      history: [expect.objectContaining({ action: "product.create", actorEmail: email })],
    });
    // No facts stated: none of its range's (decision 096), and so no claim.
    expect(product.facts).toMatchObject({ allergens: ["peanuts", "milk"], advisories: ["honey-infants"], nutrition: null });
    expect(product).toMatchObject({ nutrition: null, claims: [] });
    expect(product.facts?.ingredients.map((entry) => entry.ingredient)).toEqual(["greek-yogurt", "peanut-butter", "honey", "fruit", "chocolate"]);

    const row = await db.product.findUniqueOrThrow({ where: { id: "bar-mango-tango" } });
    expect(row).toMatchObject({ priceCents: 650, stock: 24, lowStockThreshold: 4, imageWidth: 800, imageHeight: 600, archivedAt: null });
    // Last of the bars on the shop, before the bites as before.
    expect(await shopIds("bars")).toEqual(["bar-chocolate-pb", "bar-strawberry-pb", "bar-banana-pb", "bar-mango-tango"]);
    expect((await shopIds()).slice(3)).toEqual(["bar-mango-tango", "bites-variety", "bites-strawberry", "bites-banana"]);

    const fingerprint = /([0-9a-f]{16})-800/.exec(product.image)![1]!;
    const images = await db.productImage.findMany({ orderBy: { width: "asc" } });
    expect(images.map(({ id, width, height, contentType }) => ({ id, width, height, contentType }))).toEqual(
      [400, 800, 1200].map((width) => ({ id: `${fingerprint}-${width}`, width, height: (width * 3) / 4, contentType: "image/webp" })),
    );
    for (const image of images) {
      const stored = await sharp(image.bytes).metadata();
      expect(stored).toMatchObject({ format: "webp", width: image.width, height: image.height });
      // No EXIF, no GPS, no orientation left: the pixels were turned instead.
      expect(stored.exif).toBeUndefined();
      expect(stored.orientation).toBeUndefined();
    }

    const entry = await db.auditEntry.findFirstOrThrow({ where: { subjectId: "bar-mango-tango" } });
    expect(entry).toMatchObject({ action: "product.create", actorEmail: email, before: null });
    expect(JSON.parse(entry.after!)).toMatchObject({ name: "Mango Tango", priceCents: 650, category: "bars", stock: 24 });

    // Its page shows it, with its facts and its picture's widths.
    const page = await callRoute(productPage, shopRequest("/shop/bar-mango-tango"), { params: { id: "bar-mango-tango" } });
    expect(page.status).toBe(200);
    const shown = await readJson<{ product: { image: string; allergy: unknown }; facts: { allergens: string[] } }>(page);
    expect(shown.product.allergy).toEqual({ allergens: ["peanuts", "milk"], advisories: ["honey-infants"] });
    expect(shown.facts.allergens).toEqual(["peanuts", "milk"]);

    // The same name again gets its own id; the same picture is the same files.
    const again = await create(fields({ category: "bites", name: "Mango Tango" }), { bytes: photo, name: "again.jpg", type: "image/jpeg" }, cookie);
    expect((await readJson<AnswerJson>(again)).product).toMatchObject({ id: "bites-mango-tango", image: product.image });
    const third = await create(fields(), { bytes: photo, name: "again.jpg", type: "image/jpeg" }, cookie);
    expect((await readJson<AnswerJson>(third)).product.id).toBe("bar-mango-tango-2");
    expect(await db.productImage.count()).toBe(3);
    expect(await shopIds("bites")).toEqual(["bites-variety", "bites-strawberry", "bites-banana", "bites-mango-tango"]);
  });
});

const update = (body: unknown, cookie?: string) => callFunction("update-product", body, { cookie });

function pictureRequest(productId: string, upload: Upload, cookie: string, imageAlt?: string) {
  const form = new FormData();
  form.set("productId", productId);
  if (imageAlt !== undefined) form.set("imageAlt", imageAlt);
  form.set("picture", new Blob([new Uint8Array(upload.bytes)], { type: upload.type }), upload.name);
  return callRoute(
    functionHandler("replace-product-picture"),
    new Request(new URL("/functions/v1/replace-product-picture", SHOP_ORIGIN), { method: "POST", body: form, headers: { Cookie: cookie } }),
  );
}

/** What the shop's card and the product page say of a product now. */
async function shown(id: string) {
  await catalogVersion({ maxAgeMs: 0 });
  const card = (await listProducts(null)).find((product) => product.id === id);
  const page = await readJson<{ product: { claims: string[] }; facts: { nutrition: unknown } | null }>(
    await callRoute(productPage, shopRequest(`/shop/${id}`), { params: { id } }),
  );
  return { card: card?.claims, page: page.product.claims, nutrition: page.facts?.nutrition };
}

describe("a product's own facts (issue 38 item 2, decision 096)", () => {
  it("adds a product with its own Nutrition Facts, and claims only what they hold", async () => {
    const { cookie } = await owner();
    const response = await create(fields({ name: "Papaya Punch", nutrition: JSON.stringify(mangoLabel) }), await png(), cookie);
    expect(response.status).toBe(200);
    const { product } = await readJson<AnswerJson>(response);
    expect(product.nutrition).toEqual(mangoLabel);
    // 12 g × 0.9 = 10.8 → 11 g protein; 189 kcal → 190; honey's 5.4 g of added sugars: no sugar claim.
    expect(product.claims).toEqual(["11g protein", "Under 200 calories"]);
    expect(await shown("bar-papaya-punch")).toEqual({ card: product.claims, page: product.claims, nutrition: { per: "label", ...mangoLabel } });
    const listed = await readJson<{ products: ProductJson[] }>(await callFunction("get-products", {}, { cookie }));
    expect(listed.products.find((one) => one.id === "bar-papaya-punch")).toMatchObject({ nutrition: mangoLabel, claims: product.claims });
    // The founding six: no label of their own, the requirements' claims.
    expect(listed.products.find((one) => one.id === "bar-banana-pb")).toMatchObject({
      nutrition: null,
      claims: ["10g protein", "Under 200 calories", "0g refined sugar"],
    });
    expect(listed.products.find((one) => one.id === "bites-banana")?.claims).toEqual(["10 bites per carton", "2g protein each", "20g protein per carton"]);
  });

  it("refuses a label that is not one with a message by path, writing nothing", async () => {
    const { cookie } = await owner();
    const products = await db.product.count();
    const bad = { servingGrams: 0, per100g: { ...mangoLabel.per100g, proteinG: -1, saturatedFatG: 12, sodiumMg: "lots" } };
    const { calories: _calories, ...missing } = bad.per100g;
    const refused = await create(fields({ nutrition: JSON.stringify({ ...bad, per100g: missing }) }), await png(), cookie);
    expect(refused.status).toBe(400);
    expect((await readJson<FormErrorJson>(refused)).fieldErrors).toMatchObject({
      "nutrition.servingGrams": "must be at least 1 g",
      "nutrition.per100g.calories": "is required",
      "nutrition.per100g.proteinG": "cannot be negative",
      "nutrition.per100g.sodiumMg": "must be a number",
    });
    const notJson = await create(fields({ nutrition: "{protein: 10" }), await png(), cookie);
    expect((await readJson<FormErrorJson>(notJson)).fieldErrors).toEqual({ nutrition: "Nutrition must be JSON: { servingGrams, per100g: { … } }" });
    // Parts larger than their whole: saturated fat above total fat.
    const parts = await update({ productId: "bar-banana-pb", nutrition: { ...mangoLabel, per100g: { ...mangoLabel.per100g, saturatedFatG: 12 } } }, cookie);
    expect(parts.status).toBe(400);
    expect((await readJson<FormErrorJson>(parts)).fieldErrors).toEqual({ "nutrition.per100g.saturatedFatG": "cannot be more than the total fat" });
    expect(await db.product.count()).toBe(products);
    expect((await db.product.findUniqueOrThrow({ where: { id: "bar-banana-pb" } })).facts).toBeNull();
  });

  it("edits every field of a product, its recipe and label included, and records each change", async () => {
    const { cookie, email } = await owner();
    await create(fields({ name: "Guava Glow", nutrition: JSON.stringify(mangoLabel) }), await png(), cookie);
    const lighter = { servingGrams: 40, per100g: { ...mangoLabel.per100g, addedSugarsG: 0.4 } };
    const edited = await update(
      {
        productId: "bar-guava-glow",
        name: "Mango Sunrise",
        flavor: "Mango",
        imageAlt: "A mango bar on ice",
        category: "bites",
        ingredients: ["greek-yogurt", "fruit"],
        allergens: ["peanuts"],
        nutrition: lighter,
      },
      cookie,
    );
    expect(edited.status).toBe(200);
    const { product } = await readJson<AnswerJson>(edited);
    expect(product).toMatchObject({ name: "Mango Sunrise", flavor: "Mango", imageAlt: "A mango bar on ice", category: "bites", nutrition: lighter });
    expect(product.facts).toMatchObject({
      allergens: ["peanuts", "milk"],
      advisories: [],
      ingredients: [{ ingredient: "greek-yogurt" }, { ingredient: "fruit" }],
    });
    expect(product.claims).toEqual(["5g protein", "Under 100 calories", "0g added sugar"]);
    expect((await shown("bar-guava-glow")).card).toEqual(product.claims);
    const entry = await db.auditEntry.findFirstOrThrow({ where: { subjectId: "bar-guava-glow", action: "product.update" } });
    expect(Object.keys(JSON.parse(entry.after!)).sort()).toEqual(["allergens", "category", "flavor", "imageAlt", "ingredients", "name", "nutrition"]);
    // Stating none: no label, no claim.
    const none = await readJson<AnswerJson>(await update({ productId: "bar-guava-glow", nutrition: null }, cookie));
    expect(none.product).toMatchObject({ nutrition: null, claims: [] });
    // The same again changes nothing and records nothing.
    const again = await readJson<AnswerJson>(await update({ productId: "bar-guava-glow", ingredients: ["greek-yogurt", "fruit"], nutrition: null }, cookie));
    expect(again.message).toBe("Mango Sunrise: nothing to change.");
    expect(await db.auditEntry.count({ where: { subjectId: "bar-guava-glow", actorEmail: email, action: "product.update" } })).toBe(2);
  });

  it("gives a founding product a label of its own, which then makes its claims; its recipe's words are kept", async () => {
    const { cookie } = await owner();
    const unchanged = await readJson<AnswerJson>(
      await update(
        { productId: "bar-strawberry-pb", ingredients: ["greek-yogurt", "peanut-butter", "honey", "fruit", "chocolate", "lemon-juice", "sea-salt"] },
        cookie,
      ),
    );
    expect(unchanged.message).toBe(`${unchanged.product.name}: nothing to change.`);
    const { product } = await readJson<AnswerJson>(await update({ productId: "bar-strawberry-pb", nutrition: mangoLabel }, cookie));
    expect(product.claims).toEqual(["11g protein", "Under 200 calories"]);
    expect(product.facts?.ingredients.find((entry) => entry.ingredient === "fruit")?.detail).toBe("sun-ripened organic strawberries");
    expect((await shown("bar-strawberry-pb")).page).toEqual(product.claims);
  });

  it("claims nothing for a product added before facts were its own (it was given its range's)", async () => {
    const { cookie } = await owner();
    await create(fields({ name: "Kiwi Kick" }), await png(), cookie);
    // As create-product stored it before decision 096: the bars' figures copied in.
    await db.product.update({
      where: { id: "bar-kiwi-kick" },
      data: {
        facts: {
          ingredients: [{ ingredient: "greek-yogurt" }],
          allergens: ["milk"],
          advisories: [],
          nutrition: { per: "bar", barGrams: 100, proteinGrams: 10, fatGrams: 8, refinedSugarGrams: 0, caloriesBelow: 200 },
        },
      },
    });
    const { card, page, nutrition } = await shown("bar-kiwi-kick");
    expect({ card, page, nutrition }).toEqual({ card: [], page: [], nutrition: null });
  });

  it("replaces a picture with the same checks as Add product, and the shop shows the new one", async () => {
    const { cookie, email } = await owner();
    await create(fields({ name: "Lime Light" }), await png(), cookie);
    const before = (await db.product.findUniqueOrThrow({ where: { id: "bar-lime-light" } })).image;
    const text = { bytes: new TextEncoder().encode("not a picture"), name: "fake.png", type: "image/png" };
    const refused = await pictureRequest("bar-lime-light", text, cookie);
    expect(refused.status).toBe(415);
    expect((await readJson<FormErrorJson>(refused)).fieldErrors?.picture).toMatch(/JPEG, PNG or WebP/);
    const small = await pictureRequest("bar-lime-light", await png(640, 480), cookie);
    expect(small.status).toBe(400);
    expect((await pictureRequest("bar-unknown", await png(), cookie)).status).toBe(404);
    const staff = await signedInAdmin("staff", "staff");
    expect((await pictureRequest("bar-lime-light", await png(), staff.cookie)).status).toBe(403);

    const replaced = await pictureRequest(
      "bar-lime-light",
      { bytes: await picture(1600, 1200, "webp"), name: "new.webp", type: "image/webp" },
      cookie,
      "A new mango bar",
    );
    expect(replaced.status).toBe(200);
    const { message, product } = await readJson<AnswerJson>(replaced);
    expect(message).toBe("Lime Light has its new picture.");
    expect(product.image).not.toBe(before);
    expect(product.imageAlt).toBe("A new mango bar");
    expect(product.history[0]).toMatchObject({ action: "product.picture", actorEmail: email });
    await catalogVersion({ maxAgeMs: 0 });
    expect((await listProducts("bars")).find((one) => one.id === "bar-lime-light")?.image).toContain(
      /\/product-images\/([0-9a-f]{16})-800/.exec(product.image)![1],
    );
    expect(UPLOAD_BODY_LIMITS.get("/functions/v1/replace-product-picture")).toBe(CREATE_PRODUCT_BODY_BYTES);
  });
});

describe("GET /product-images/<id>.webp", () => {
  it("serves a picture as immutable with its ETag, 304 to a browser that has it, 404 for anything else, and from memory once read", async () => {
    const { cookie } = await owner();
    const response = await create(fields({ name: "Served Bar" }), await png(1000, 800), cookie);
    const { product } = await readJson<AnswerJson>(response);
    const file = product.image.slice("/product-images/".length);
    const get = (name: string, headers: Record<string, string> = {}) =>
      callRoute(productImage, shopRequest(`/product-images/${name}`, { headers }), { params: { file: name } });

    const served = await get(file);
    expect(served.status).toBe(200);
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("Content-Type")).toBe("image/webp");
    const etag = served.headers.get("ETag");
    expect(etag).toBe(`"${file.replace(/\.webp$/, "")}"`);
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(served.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect((await sharp(bytes).metadata()).width).toBe(800);

    const cached = await get(file, { "If-None-Match": etag! });
    expect(cached.status).toBe(304);
    expect(cached.headers.get("Cache-Control")).toMatch(/immutable/);
    expect(await cached.text()).toBe("");

    for (const name of ["0123456789abcdef-800.webp", file.replace(".webp", ".png"), "../../etc/passwd", `${file}x`]) {
      expect((await get(name)).status, name).toBe(404);
    }

    // Read once, then kept by this instance: even gone from the database, it is still served.
    const fingerprint = file.slice(0, 16);
    await get(`${fingerprint}-400.webp`);
    await db.productImage.delete({ where: { id: `${fingerprint}-400` } });
    expect((await get(`${fingerprint}-400.webp`)).status).toBe(200);
  });
});

describe("archive-product", () => {
  it("is the owner's, and answers 404 for an unknown product and 400 for a bad body", async () => {
    expect((await archive({ productId: "bar-chocolate-pb" })).status).toBe(401);
    const staff = await signedInAdmin("staff", "staff");
    expect((await archive({ productId: "bar-chocolate-pb" }, staff.cookie)).status).toBe(403);
    const { cookie } = await owner();
    expect(await readJson<ErrorJson>(await archive({ productId: "bar-pickle" }, cookie))).toEqual({ error: "No product with that id." });
    const bad = await archive({ productId: "bar-chocolate-pb", archived: "yes" }, cookie);
    expect(bad.status).toBe(400);
    expect((await readJson<FormErrorJson>(bad)).fieldErrors).toEqual({ archived: "must be true or false" });
    expect((await db.product.findUniqueOrThrow({ where: { id: "bar-chocolate-pb" } })).archivedAt).toBeNull();
  });

  it("takes a product off the shop, its page, the sitemap and carts, keeps it on its orders, once; restore puts it back", async () => {
    const { cookie, email } = await owner();
    const { product } = await readJson<AnswerJson>(await create(fields({ name: "Retiring Bar" }), await png(), cookie));
    const id = product.id;

    // A customer ordered it, and another has it in their cart.
    const { orderId } = await placeOrder([[id, 4]]);
    const cart = cartClient();
    expect((await readCartJson(await cart.post({ intent: "add", productId: id, quantity: "4" }))).ok).toBe(true);

    const response = await archive({ productId: id }, cookie);
    expect(response.status).toBe(200);
    const archived = await readJson<AnswerJson>(response);
    expect(archived.message).toBe("Retiring Bar is archived: it is no longer on the shop.");
    expect(archived.product.archivedAt).toEqual(expect.any(String));

    expect(await shopIds()).not.toContain(id);
    expect(await shopIds("bars")).not.toContain(id);
    expect(await (await callRoute(sitemap, shopRequest("/sitemap.xml"))).text()).not.toContain(id);
    const page = await callRoute(productPage, shopRequest(`/shop/${id}`), { params: { id } });
    expect(page.status).toBe(410);
    expect(await readJson<{ retired: string }>(page)).toEqual({ retired: "Retiring Bar", category: "bars" });

    // The cart names it, prices it in no figure and cannot check out; nothing more of it can be added.
    const { cart: held } = await cart.page();
    expect(held.lines).toEqual([]);
    expect(held.price?.unavailable).toEqual([{ productId: id, name: "Retiring Bar", quantity: 4, reason: "gone" }]);
    expect(held.price?.checkoutBlocked).toBe("Remove the items we no longer sell to check out");
    expect(await readCartJson(await cart.post({ intent: "add", productId: id, quantity: "1" }))).toMatchObject({
      ok: false,
      error: "Retiring Bar is no longer sold.",
    });
    const checkout = await callFunction("simple-checkout", checkoutBody([[id, 4]]));
    expect(checkout.status).toBe(400);
    expect((await readJson<ErrorJson>(checkout)).error).toBe("Retiring Bar is no longer sold. Please remove it from your cart.");

    // The order keeps its line, and the order page its picture.
    expect(await db.orderItem.findMany({ where: { orderId }, select: { productId: true, name: true, quantity: true, unitPriceCents: true } })).toEqual([
      { productId: id, name: "Retiring Bar", quantity: 4, unitPriceCents: 650 },
    ]);
    expect((await findProducts([id]))[0]).toMatchObject({ image: product.image, forSale: false, inStock: false });

    // Again: nothing changes, nothing more is recorded.
    const twice = await archive({ productId: id, archived: true }, cookie);
    expect(twice.status).toBe(200);
    expect((await readJson<AnswerJson>(twice)).message).toBe("Retiring Bar is already archived.");
    expect(await db.auditEntry.findMany({ where: { subjectId: id, action: "product.archive" } })).toEqual([
      expect.objectContaining({ actorEmail: email, before: JSON.stringify({ archivedAt: null }) }),
    ]);

    // get-products lists it, marked.
    const listed = await readJson<{ products: ProductJson[] }>(await callFunction("get-products", {}, { cookie }));
    expect(listed.products.find((candidate) => candidate.id === id)?.archivedAt).toEqual(archived.product.archivedAt);

    // Restored: on the shop again, the cart's line with it.
    const restored = await archive({ productId: id, archived: false }, cookie);
    expect((await readJson<AnswerJson>(restored)).message).toBe("Retiring Bar is back on the shop.");
    expect(await shopIds("bars")).toContain(id);
    expect((await cart.page()).cart.lines.map((line) => [line.product.id, line.quantity])).toEqual([[id, 4]]);
    expect(await db.auditEntry.count({ where: { subjectId: id, action: "product.restore" } })).toBe(1);
  });
});
