import { describe, expect, it } from "vitest";
import { claimDatabaseRole, DEMO_OPERATORS } from "~/models/database-role.server";
import { upsertAdmin } from "~/models/operators.server";
import { db } from "~/utils/db.server";
import { startMode } from "../../server/mode.mjs";

/** Demo or production (decision 037): decided from the environment as given, then claimed in the database. */

const realShop = {
  SESSION_SECRET: "a-real-session-secret-0123456789",
  PUBLIC_URL: "https://chillpb.com",
  STRIPE_SECRET_KEY: "sk_live_real",
  STRIPE_WEBHOOK_SECRET: "whsec_real",
  SMTP_URL: "smtps://user:pass@smtp.example.com:465",
  DATABASE_URL: "postgresql://shop@db.internal:5432/chillpb",
};

describe("the start mode", () => {
  it("is the demo when nothing real is configured", () => {
    expect(startMode({})).toEqual({ demo: true, refusal: null });
    // A mail catcher, a public address or a database of the demo's own are not secrets.
    expect(startMode({ SMTP_URL: "smtp://127.0.0.1:1025", PUBLIC_URL: "http://localhost:3000" })).toEqual({ demo: true, refusal: null });
  });

  it("is production with NODE_ENV=production, never the demo", () => {
    expect(startMode({ ...realShop, NODE_ENV: "production" })).toEqual({ demo: false, refusal: null });
    expect(startMode({ ...realShop, NODE_ENV: "production", DEMO: "true" }).refusal).toMatch(/^DEMO=true is refused with NODE_ENV=production/);
  });

  it("refuses a production secret without NODE_ENV=production, naming each one and what to set", () => {
    expect(startMode(realShop).refusal).toBe(
      "SESSION_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET are set but NODE_ENV is not set: this looks like a real shop, which must not start as the demo (stand-ins, demo accounts with public passwords). Set NODE_ENV=production to run the real shop, or unset them to run the demo.",
    );
    for (const name of ["SESSION_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
      expect(startMode({ [name]: realShop[name] }).refusal).toMatch(new RegExp(`^${name} is set but NODE_ENV is not set`));
      expect(startMode({ NODE_ENV: "development", [name]: realShop[name] }).refusal).toMatch(/NODE_ENV is "development"/);
    }
  });
});

describe("the database's role", () => {
  it("is claimed once by the first shop, and the other kind is refused", async () => {
    await db.databaseRole.deleteMany();
    expect(await claimDatabaseRole("production")).toEqual({ ok: true, claimedNow: true });
    expect(await claimDatabaseRole("production")).toEqual({ ok: true, claimedNow: false });
    const demo = await claimDatabaseRole("demo");
    expect(demo).toMatchObject({ ok: false, message: expect.stringContaining("the demo never runs on it") });
    await db.databaseRole.deleteMany();
  });

  it("is not given to the demo when the database holds a real operator, nor to production when it holds the demo's accounts", async () => {
    await db.databaseRole.deleteMany();
    await upsertAdmin("owner@real-shop.example", "a long real passphrase", "owner");
    expect(await claimDatabaseRole("demo")).toMatchObject({ ok: false });
    await db.adminUser.deleteMany({ where: { email: "owner@real-shop.example" } });

    await upsertAdmin(DEMO_OPERATORS[0].email, DEMO_OPERATORS[0].password, "owner");
    expect(await claimDatabaseRole("production")).toMatchObject({
      ok: false,
      message: expect.stringContaining("it holds the demo's accounts, whose passwords are public"),
    });
    expect(await db.databaseRole.count()).toBe(0);
    expect(await claimDatabaseRole("demo")).toEqual({ ok: true, claimedNow: true });
    await db.adminUser.deleteMany({ where: { email: DEMO_OPERATORS[0].email } });
    await db.databaseRole.deleteMany();
  });
});
