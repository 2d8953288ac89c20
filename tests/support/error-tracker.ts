/** The events in what an error tracker's stand-in received: each Sentry envelope's items after its header line, as JSON. */
export function trackerEvents(envelopes: readonly string[]) {
  return envelopes.flatMap((envelope) =>
    envelope
      .split("\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((item) => "event_id" in item),
  );
}
