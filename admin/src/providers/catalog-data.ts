import type { BaseRecord, DataProvider } from "@refinedev/core";
import type { DiscountCodeJson, DiscountCodeTerms, ProductJson } from "@shop/owner-records";
import type { FunctionBody } from "~/functions/registry.server";
import { callFunction, callFunctionWithFiles } from "../api";

/**
 * Refine's data provider for the owner's catalogue resources, `products` and
 * `discount-codes` (resources.ts names it "catalog" in their meta). Both lists are
 * short, so each function answers the whole list and one record is read from it.
 */

type Resource = "products" | "discount-codes";

/**
 * What update-product takes besides the product's id; `archived` alone goes
 * to archive-product (decision 065), a `picture` form to replace-product-picture (decision 096).
 */
type ProductChanges = Omit<FunctionBody<"update-product">, "productId"> & { archived?: boolean; picture?: FormData };

async function list(resource: string): Promise<(ProductJson | DiscountCodeJson)[]> {
  if (resource === "products") return (await callFunction("get-products")).products;
  if (resource === "discount-codes") return (await callFunction("get-discount-codes")).codes;
  throw new Error(`Unknown resource ${resource}`);
}

const idOf = (resource: Resource | string, record: ProductJson | DiscountCodeJson) =>
  resource === "products" ? (record as ProductJson).id : (record as DiscountCodeJson).code;

/**
 * A record as the page that asked receives it: Refine's DataProvider is
 * generic in a type only its caller names (useTable<ProductJson>), which no
 * provider can check. The record is typed by its function's answer up to
 * here; this is the one place it is handed over as the caller's type.
 */
const forCaller = <TData extends BaseRecord>(record: BaseRecord) => record as TData;

/** `create`: only make a new code; the server answers 409 on the code field for one that exists. */
async function saveCode(terms: DiscountCodeTerms, { create = false } = {}) {
  return callFunction("save-discount-code", { ...terms, ...(create && { create }) });
}

export const catalogDataProvider: DataProvider = {
  getApiUrl: () => "/functions/v1",

  async getList<TData extends BaseRecord>({ resource }: Parameters<DataProvider["getList"]>[0]) {
    const records = await list(resource);
    return { data: records.map((record) => forCaller<TData>({ ...record, id: idOf(resource, record) })), total: records.length };
  },

  async getOne<TData extends BaseRecord>({ resource, id }: Parameters<DataProvider["getOne"]>[0]) {
    const record = (await list(resource)).find((candidate) => idOf(resource, candidate) === String(id));
    if (!record) throw { message: "Not found", statusCode: 404 };
    return { data: forCaller<TData>({ ...record, id: idOf(resource, record) }) };
  },

  async update<TData extends BaseRecord>({ resource, id, variables }: Parameters<DataProvider["update"]>[0]) {
    if (resource === "products") {
      const { archived, picture, ...changes } = variables as ProductChanges;
      const { message, product } = picture
        ? await callFunctionWithFiles("replace-product-picture", picture)
        : archived === undefined
          ? await callFunction("update-product", { productId: String(id), ...changes })
          : await callFunction("archive-product", { productId: String(id), archived });
      return { data: forCaller<TData>({ ...product, message }) };
    }
    const { message, code } = await saveCode({ ...(variables as DiscountCodeTerms), code: String(id) });
    return { data: forCaller<TData>({ ...code, id: code.code, message }) };
  },

  async create<TData extends BaseRecord>({ resource, variables }: Parameters<DataProvider["create"]>[0]) {
    if (resource === "products") {
      // The new product's fields and its picture, as the page's form holds them.
      const { message, product } = await callFunctionWithFiles("create-product", (variables as { form: FormData }).form);
      return { data: forCaller<TData>({ ...product, message }) };
    }
    const { message, code } = await saveCode(variables as DiscountCodeTerms, { create: true });
    return { data: forCaller<TData>({ ...code, id: code.code, message }) };
  },

  deleteOne: () => Promise.reject(new Error("Products and codes are not deleted: archive a product, make a code inactive.")),
};
