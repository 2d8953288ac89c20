import { describe, expect, it } from "vitest";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

describe("a rate-limit key", () => {
  it("stays short whatever address it counts, and still tells long addresses apart", async () => {
    const long = (fill: string) => fill.repeat(8_000);
    const now = Date.parse("2026-11-25T10:00:10Z");
    await hitRateLimit("newsletter", long("a"), now);
    await hitRateLimit("newsletter", long("a"), now);
    await hitRateLimit("newsletter", long("b"), now);
    const rows = await db.rateLimitWindow.findMany({ where: { key: { startsWith: "newsletter:sha256:" } } });
    expect(rows.map((row) => row.count).sort()).toEqual([1, 2]);
    for (const row of rows) expect(row.key.length).toBeLessThanOrEqual(120);
  });

  it("keeps a real address readable", async () => {
    const now = Date.parse("2026-11-25T10:00:10Z");
    await hitRateLimit("partnership", "2001:db8::7", now);
    expect(await db.rateLimitWindow.count({ where: { key: "partnership:2001:db8::7" } })).toBe(1);
  });
});

describe("a rate-limit window", () => {
  it("starts with an address's first request, so a burst across a clock minute gets the limit once, not twice", async () => {
    const start = Date.parse("2026-11-25T10:00:50Z");
    const allowed = [];
    // 20 requests in 20 s, from 10:00:50 to 10:01:09: the old clock-minute windows let all 20 through.
    for (let second = 0; second < 20; second++) allowed.push((await hitRateLimit("discount", "198.51.100.20", start + second * 1000)).allowed);
    expect(allowed.filter(Boolean)).toHaveLength(env.RATE_LIMIT_PER_MINUTE);
    const refused = await hitRateLimit("discount", "198.51.100.20", start + 30_000);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it("starts again with the first request after it runs out", async () => {
    const start = Date.parse("2026-11-25T11:00:00Z");
    for (let request = 0; request < env.RATE_LIMIT_PER_MINUTE + 1; request++) await hitRateLimit("delivery", "198.51.100.21", start);
    expect((await hitRateLimit("delivery", "198.51.100.21", start + 59_000)).allowed).toBe(false);
    expect(await hitRateLimit("delivery", "198.51.100.21", start + 60_000)).toEqual({ allowed: true, retryAfterSeconds: 60 });
  });
});
