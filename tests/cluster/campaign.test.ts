import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withClient } from "../../scripts/scratch-postgres.mjs";
import { startSmtpServer, type TestSmtpServer } from "../integration/smtp";
import { scratchDatabase, startShop, type ScratchDatabase, type ShopProcess } from "../support/shop-process";

/**
 * A campaign to 2,000 subscribers sent by two shop processes over one
 * database, to a real SMTP server (issue 40, decision 101): each subscribed
 * address gets exactly one copy with its own List-Unsubscribe headers, an
 * address unsubscribed by a mail provider's one-click POST while it sends
 * gets nothing after, and the time the list takes to drain is printed (the
 * README quotes it).
 */

const SUBSCRIBERS = 2_000;
const PORTS = [3411, 3412] as const;
const origin = (port: number) => `http://127.0.0.1:${port}`;
const [A, B] = PORTS.map(origin) as [string, string];
const OWNER = { email: `owner-${randomUUID().slice(0, 8)}@campaign.test`, password: "a long campaign passphrase" };

let database: ScratchDatabase;
let smtp: TestSmtpServer;
const shops: ShopProcess[] = [];

const query = <T>(work: (client: pg.Client) => Promise<T>) => withClient(database.url, work);

function environment(port: number): Record<string, string | undefined> {
  const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
  return {
    ...inherited,
    DATABASE_URL: database.url,
    PUBLIC_URL: origin(port),
    SMTP_URL: smtp.url,
    OUTBOX_POLL_MS: "200",
    JOBS_TICK_MS: "500",
  };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  database = await scratchDatabase("chillpb_campaign");
  // The first migrates and seeds; the second starts on the migrated database.
  shops.push(await startShop(PORTS[0], environment(PORTS[0]), { origin: A }));
  shops.push(await startShop(PORTS[1], environment(PORTS[1]), { origin: B }));
  const created = spawnSync(
    process.execPath,
    ["node_modules/.bin/tsx", "scripts/admin-create.ts", "--email", OWNER.email, "--password", OWNER.password, "--role", "owner"],
    { env: { ...environment(PORTS[0]) } as NodeJS.ProcessEnv, encoding: "utf8" },
  );
  expect(created.status, created.stderr).toBe(0);
  // The list: 2,000 addresses, as a sign-up would store them (no welcome: that is another test's).
  await query((client) =>
    client.query(
      `INSERT INTO "Subscriber" ("id", "email", "mailbox", "unsubscribeToken")
       SELECT gen_random_uuid()::text, 'fan-' || n || '@list.test', 'fan-' || n || '@list.test', $1 || n FROM generate_series(1, $2::int) AS n`,
      [randomBytes(12).toString("base64url"), SUBSCRIBERS],
    ),
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  await smtp?.close();
  await database?.drop();
}, 60_000);

async function signIn(base: string) {
  const response = await fetch(`${base}/auth/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(OWNER).toString(),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function call<T>(base: string, cookie: string, name: string, body: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${base}/functions/v1/${name}`, {
    method: "POST",
    headers: { Origin: base, Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

type Campaign = { id: string; status: string; counts: { recipients: number; sent: number; failed: number; waiting: number; unsubscribed: number } };

describe("a campaign to the list, from two instances", () => {
  it(`sends each of ${SUBSCRIBERS.toLocaleString("en-US")} subscribers exactly one copy with one-click unsubscribe headers, and none after a one-click unsubscribe`, async () => {
    const cookie = await signIn(A);
    const settings = await call<Record<string, unknown>>(A, cookie, "get-settings", {});
    expect(settings.status).toBe(200);
    const saved = await call(A, cookie, "save-settings", { ...settings.json, postalAddress: "Chill PB, 1234 Abbot Kinney Blvd, Venice, CA 90291" });
    expect(saved.status).toBe(200);

    const draft = await call<{ campaign: Campaign }>(A, cookie, "save-campaign", {
      subject: "Meet Maple Pecan",
      body: "Our newest bar is **Maple Pecan**.\n\n- Organic peanut butter\n- Real maple",
      productIds: ["bar-chocolate-pb"],
      discountCode: "WELCOME10",
    });
    expect(draft.status).toBe(201);
    const { id } = draft.json.campaign;

    const startedAt = Date.now();
    const sending = await call<{ campaign: Campaign }>(A, cookie, "send-campaign", { id });
    expect(sending.status).toBe(200);
    expect(sending.json.campaign.counts.recipients).toBe(SUBSCRIBERS);

    // Mid-send: a mail provider's one-click POST (RFC 8058) for an address whose copy has not gone yet, to the other instance,
    // from the provider's own site.
    const leaver = await query(async (client) => {
      const { rows } = await client.query<{ to: string; unsubscribeUrl: string }>(
        `SELECT "to", "unsubscribeUrl" FROM "OutboxMessage" WHERE "campaignId" = $1 AND status = 'pending' ORDER BY "to" DESC LIMIT 1`,
        [id],
      );
      return rows[0]!;
    });
    const sentBefore = smtp.to(leaver.to).length;
    const oneClick = await fetch(leaver.unsubscribeUrl.replace(A, B), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.provider.example" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    const unsubscribed = await query((client) => client.query(`SELECT "unsubscribedAt" FROM "Subscriber" WHERE email = $1`, [leaver.to]));
    expect(unsubscribed.rows[0].unsubscribedAt).not.toBeNull();

    let campaign: Campaign = sending.json.campaign;
    const deadline = Date.now() + 180_000;
    while (campaign.status === "sending" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      campaign = (await call<{ campaigns: Campaign[] }>(B, cookie, "get-campaigns", { id })).json.campaigns[0]!;
    }
    const drainMs = Date.now() - startedAt;
    expect(campaign.status).toBe("sent");
    // Time for a second copy to arrive, had any instance sent one.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const copies = smtp.received.filter((email) => email.subject === "Meet Maple Pecan");
    const byRecipient = new Map<string, typeof copies>();
    for (const copy of copies) for (const to of copy.envelope.to) byRecipient.set(to, [...(byRecipient.get(to) ?? []), copy]);
    expect(sentBefore).toBe(0);
    expect(byRecipient.get(leaver.to) ?? []).toHaveLength(0);
    expect(byRecipient.size).toBe(SUBSCRIBERS - 1);
    expect([...byRecipient.values()].every((received) => received.length === 1)).toBe(true);
    expect(copies).toHaveLength(SUBSCRIBERS - 1);

    const tokens = await query(async (client) => {
      const { rows } = await client.query<{ email: string; unsubscribeToken: string }>(`SELECT email, "unsubscribeToken" FROM "Subscriber"`);
      return new Map(rows.map((row) => [row.email, row.unsubscribeToken]));
    });
    for (const copy of copies) {
      const to = copy.envelope.to[0]!;
      const link = `${A}/unsubscribe?token=${tokens.get(to)}`;
      expect(copy.header("list-unsubscribe")).toBe(`<${link}>, <mailto:hello@chillpb.example?subject=Unsubscribe>`);
      expect(copy.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(copy.text).toContain(link);
    }
    expect(copies[0]!.text).toContain("Chill PB, 1234 Abbot Kinney Blvd, Venice, CA 90291");

    expect(campaign.counts).toEqual({ recipients: SUBSCRIBERS, sent: SUBSCRIBERS - 1, failed: 0, waiting: 0, unsubscribed: 1 });
    console.log(`A campaign to ${SUBSCRIBERS} subscribers drained in ${(drainMs / 1000).toFixed(1)} s on two instances (OUTBOX_CONCURRENCY 4 each)`);
  }, 240_000);
});
