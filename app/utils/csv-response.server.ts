/** A streamed CSV download named `<name>-<date>.csv`, never cached. */
export function csvResponse(name: string, body: ReadableStream<Uint8Array>, now = new Date()) {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
