import type { LoaderFunctionArgs } from "@remix-run/node";
import { readProductImage } from "~/models/product-images.server";
import { answeringDatabaseFailures } from "~/utils/api.server";
import { fileNotFound, immutableFileResponse } from "~/utils/file-response.server";

/** `<fingerprint>-<width>.webp`, as app/lib/product-images.ts names the files. */
const FILE = /^([0-9a-f]{16}-\d{2,4})\.webp$/;

/**
 * GET /product-images/<fingerprint>-<width>.webp: an uploaded product
 * picture (decision 065). Its name holds its content's hash, so it is served
 * as immutable for a year; its id is its ETag, and a browser that has it gets
 * 304. Any other name is 404.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  return answeringDatabaseFailures("A product picture", async () => {
    const id = FILE.exec(params.file ?? "")?.[1];
    if (!id) return fileNotFound();
    const image = await readProductImage(id);
    if (!image) return fileNotFound();
    return immutableFileResponse(request, { etag: image.id, contentType: image.contentType, bytes: image.bytes });
  });
}
