import type { LoaderFunctionArgs } from "@remix-run/node";
import { readProductImage } from "~/models/product-images.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

/** `<fingerprint>-<width>.webp`, as app/lib/product-images.ts names the files. */
const FILE = /^([0-9a-f]{16}-\d{2,4})\.webp$/;

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * GET /product-images/<fingerprint>-<width>.webp: an uploaded product
 * picture (decision 065). Its name holds its content's hash, so it is served
 * as immutable for a year; its id is its ETag, and a browser that has it gets
 * 304. Any other name is 404.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  return answeringDatabaseFailures("A product picture", async () => {
    const id = FILE.exec(params.file ?? "")?.[1];
    if (!id) return notFound();
    const image = await readProductImage(id);
    if (!image) return notFound();
    const etag = `"${image.id}"`;
    const headers = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag, "Content-Type": image.contentType };
    const asked = request.headers.get("If-None-Match");
    if (asked && asked.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
    return new Response(image.bytes, { headers: { ...headers, "Content-Length": String(image.bytes.byteLength) } });
  });
}
