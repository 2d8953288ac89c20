/** A file route's 404: plain text, never kept, so the file may appear under that name later. */
export function fileNotFound() {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * A file whose URL names its content (its name holds its hash), so it is
 * kept for a year as immutable; `etag` (its id) is its ETag, and a client
 * that has it (If-None-Match) gets 304 without the bytes.
 */
export function immutableFileResponse(request: Request, file: { etag: string; contentType: string; bytes: Uint8Array<ArrayBuffer> }) {
  const etag = `"${file.etag}"`;
  const headers = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag, "Content-Type": file.contentType };
  const asked = request.headers.get("If-None-Match");
  if (asked && asked.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(file.bytes, { headers: { ...headers, "Content-Length": String(file.bytes.byteLength) } });
}
