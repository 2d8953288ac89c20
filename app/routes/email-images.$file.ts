import type { LoaderFunctionArgs } from "@remix-run/node";
import { readEmailImage } from "~/models/email-images.server";
import { answeringDatabaseFailures } from "~/utils/api.server";
import { fileNotFound, immutableFileResponse } from "~/utils/file-response.server";

/** `<key>.jpg`; app/models/email-images.server.ts judges the key. */
const FILE = /^(.+)\.jpg$/;

/**
 * GET /email-images/<key>.jpg: a product picture as a JPEG that every mail
 * client shows, for a campaign's product cards (decision 102). Its key holds
 * its source's fingerprint, so it is served as immutable for a year; the key
 * is its ETag, and a client or image proxy that has it gets 304. A key that
 * names nothing, or the artwork's content before it changed, is 404.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  return answeringDatabaseFailures("A product picture", async () => {
    const key = FILE.exec(params.file ?? "")?.[1];
    if (!key) return fileNotFound();
    const jpeg = await readEmailImage(key);
    if (!jpeg) return fileNotFound();
    return immutableFileResponse(request, { etag: key, contentType: "image/jpeg", bytes: jpeg });
  });
}
