import { randomBytes, randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getAdmin, SESSION_IDLE_MS, SESSION_MAX_MS, signIn, upsertAdmin, verifyPassword } from "~/auth.server";
import { db } from "~/db.server";
import { sessionSecret } from "~/env.server";
import { ADMIN_COOKIE, createAdmin, login, logout, me, requestWith, sessionCookie, signedInAdmin } from "./admin-client";
import { callFunction, readJson, type ErrorJson } from "./functions-client";

/**
 * Operator sign-in (DESIGN.md §7): password hashes, the session cookie,
 * sessions that end on the server, expiry, and throttling of failed sign-ins.
 */

const MINUTE = 60 * 1000;
const FAILURE_WINDOW_MS = 15 * MINUTE;
const WRONG = "Wrong email or password.";

type MeJson = { email: string };

function form(email: string, password: string) {
  const data = new FormData();
  data.set("email", email);
  data.set("password", password);
  return data;
}

/** The only session of a fresh operator. */
function sessionOf(userId: string) {
  return db.adminSession.findFirstOrThrow({ where: { userId } });
}

// Unexpected sign-in failures are logged; none are expected, but keep the output clean.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("signing in", () => {
  it("stores an scrypt hash, never the password", async () => {
    const admin = await createAdmin();
    const { passwordHash } = await db.adminUser.findUniqueOrThrow({ where: { email: admin.email } });
    expect(passwordHash.startsWith("scrypt$")).toBe(true);
    expect(passwordHash).not.toContain(admin.password);
    expect(await verifyPassword(admin.password, passwordHash)).toBe(true);
    expect(await verifyPassword(`${admin.password}x`, passwordHash)).toBe(false);
    // Two accounts with the same password get different hashes (a random salt).
    const twin = await upsertAdmin(`twin-${randomUUID().slice(0, 8)}@chillpb.test`, admin.password);
    expect(twin.passwordHash).not.toBe(passwordHash);
  });

  it("refuses a password shorter than 12 characters", async () => {
    await expect(upsertAdmin("short@chillpb.test", "elevenchars")).rejects.toThrow(/12 characters/);
    expect(await db.adminUser.findUnique({ where: { email: "short@chillpb.test" } })).toBeNull();
  });

  it("answers the email and an HttpOnly, SameSite=Lax session cookie; /auth/me then knows the operator", async () => {
    const admin = await createAdmin();
    const response = await login(admin.email, admin.password, { origin: "http://shop.test" });
    expect(response.status).toBe(200);
    expect(await readJson<MeJson>(response)).toEqual({ email: admin.email });
    expect(response.headers.get("Cache-Control")).toBe("no-store");

    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie.startsWith(`${ADMIN_COOKIE}=`)).toBe(true);
    const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("path=/");

    const cookie = sessionCookie(response);
    expect(cookie).not.toBeNull();
    const who = await me(cookie ?? "");
    expect(who.status).toBe(200);
    expect(await readJson<MeJson>(who)).toEqual({ email: admin.email });
  });

  it("matches the email without regard to case or surrounding spaces", async () => {
    const admin = await createAdmin();
    const response = await login(`  ${admin.email.toUpperCase()} `, admin.password);
    expect(response.status).toBe(200);
    expect(await readJson<MeJson>(response)).toEqual({ email: admin.email });
  });

  it("keeps only a hash of the session token in the database", async () => {
    const admin = await signedInAdmin();
    const token = decodeURIComponent(admin.cookie.slice(ADMIN_COOKIE.length + 1));
    const session = await sessionOf(admin.id);
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);
    expect(token).not.toContain(session.id);
  });

  it("answers 401 and no cookie to a wrong password, and the same to an unknown email", async () => {
    const admin = await createAdmin();
    const wrong = await login(admin.email, "not the password at all");
    const unknown = await login(`nobody-${randomUUID().slice(0, 8)}@chillpb.test`, admin.password);

    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("Set-Cookie")).toBeNull();
      expect(await readJson<ErrorJson>(response)).toEqual({ error: WRONG });
    }
    expect(await db.adminSession.count({ where: { userId: admin.id } })).toBe(0);
  });

  it("answers 401 to a sign-in without a password or with a malformed email", async () => {
    const admin = await createAdmin();
    for (const response of [await login(admin.email, ""), await login("not-an-email", admin.password)]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("Set-Cookie")).toBeNull();
      expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
    }
  });

  it("refuses a sign-in posted from another site with 403", async () => {
    const admin = await createAdmin();
    const response = await login(admin.email, admin.password, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await db.adminSession.count({ where: { userId: admin.id } })).toBe(0);
  });

  it("answers 401 at /auth/me without a cookie", async () => {
    const response = await me();
    expect(response.status).toBe(401);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });
});

describe("throttling failed sign-ins", () => {
  /** A moment one second into a 15-minute window, so that `+ 14 min` stays inside it. */
  const windowStart = () => Math.floor(Date.now() / FAILURE_WINDOW_MS) * FAILURE_WINDOW_MS + 1000;

  it("after 5 failures for an account even the right password answers 429, for a whole window after the lock", async () => {
    const admin = await createAdmin();
    const other = await createAdmin();
    const address = `address-${randomUUID()}`;
    const start = windowStart();

    for (let attempt = 1; attempt <= 5; attempt++) {
      const result = await signIn(form(admin.email, `wrong password ${attempt}`), address, start + attempt);
      expect(result).toEqual({ ok: false, status: 401, error: WRONG });
    }

    const locked = await signIn(form(admin.email, admin.password), address, start + MINUTE);
    expect(locked).toEqual({ ok: false, status: 429, error: expect.stringMatching(/too many/i) });
    // The account stays locked from any address…
    expect(await signIn(form(admin.email, admin.password), `elsewhere-${randomUUID()}`, start + MINUTE)).toMatchObject({ status: 429 });
    // …and the address is locked for any account.
    expect(await signIn(form(other.email, other.password), address, start + MINUTE)).toMatchObject({ status: 429 });
    // Another operator from another address is not affected.
    expect(await signIn(form(other.email, other.password), `elsewhere-${randomUUID()}`, start + MINUTE)).toMatchObject({ ok: true });

    expect(await signIn(form(admin.email, admin.password), address, start + 14 * MINUTE)).toMatchObject({ status: 429 });
    // Fixed windows alone would forget the failures a moment after the window turns.
    expect(await signIn(form(admin.email, admin.password), address, start + FAILURE_WINDOW_MS + MINUTE)).toMatchObject({ status: 429 });
    const later = await signIn(form(admin.email, admin.password), address, start + 2 * FAILURE_WINDOW_MS);
    expect(later).toMatchObject({ ok: true, admin: { email: admin.email } });
  });

  it("answers 429 through the route too, with no cookie", async () => {
    const admin = await createAdmin();
    const clientAddress = `203.0.113.7-${randomUUID()}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login(admin.email, "not the password at all", { clientAddress })).status).toBe(401);
    }
    const response = await login(admin.email, admin.password, { clientAddress });
    expect(response.status).toBe(429);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.stringMatching(/too many/i) });
  });

  it("counts four failures as no lock: the fifth try with the right password signs in", async () => {
    const admin = await createAdmin();
    const address = `four-${randomUUID()}`;
    const start = windowStart();
    for (let attempt = 0; attempt < 4; attempt++) {
      await signIn(form(admin.email, "not the password at all"), address, start);
    }
    expect(await signIn(form(admin.email, admin.password), address, start)).toMatchObject({ ok: true });
  });

  // KNOWN BUG (see report): the failure count is read before the password is
  // checked and written after, so a burst of concurrent guesses all pass the
  // check. Turn this into `it` once signIn reserves the attempt first.
  it("refuses all but 5 of a burst of concurrent wrong guesses", async () => {
    const admin = await createAdmin();
    const address = `burst-${randomUUID()}`;
    const start = windowStart();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => signIn(form(admin.email, `guess ${index}`), address, start)),
    );
    const checked = results.filter((result) => !result.ok && result.status === 401);
    expect(checked.length).toBeLessThanOrEqual(5);
  });
});

describe("sessions end on the server", () => {
  it("after sign-out the old cookie no longer works for /auth/me or the order functions", async () => {
    const admin = await signedInAdmin();
    expect((await callFunction("get-orders", {}, { cookie: admin.cookie })).status).toBe(200);

    const response = await logout(admin.cookie, { origin: "http://shop.test" });
    expect(response.status).toBe(200);
    // The browser is told to drop the cookie…
    expect(response.headers.get("Set-Cookie")).toMatch(new RegExp(`^${ADMIN_COOKIE}=;.*Max-Age=0`, "i"));
    // …but a copy of the old value is no good either.
    expect((await me(admin.cookie)).status).toBe(401);
    const orders = await callFunction("get-orders", {}, { cookie: admin.cookie });
    expect(orders.status).toBe(401);
    expect(await readJson<ErrorJson>(orders)).toEqual({ error: expect.any(String) });
    expect((await sessionOf(admin.id)).revokedAt).toBeInstanceOf(Date);
  });

  it("signing out one session leaves the operator's other sessions alone", async () => {
    const admin = await signedInAdmin();
    const second = sessionCookie(await login(admin.email, admin.password));
    expect(second).not.toBeNull();
    await logout(admin.cookie);
    expect((await me(admin.cookie)).status).toBe(401);
    expect((await me(second ?? "")).status).toBe(200);
  });

  it("refuses a sign-out posted from another site, and the session goes on", async () => {
    const admin = await signedInAdmin();
    expect((await logout(admin.cookie, { origin: "https://evil.example" })).status).toBe(403);
    expect((await me(admin.cookie)).status).toBe(200);
  });

  it("ends after 2 hours without use; each use pushes that back", async () => {
    const admin = await signedInAdmin();
    const request = requestWith(admin.cookie);
    const { lastSeenAt } = await sessionOf(admin.id);
    const start = lastSeenAt.getTime();

    const almostIdle = start + SESSION_IDLE_MS - MINUTE;
    expect(await getAdmin(request, almostIdle)).toEqual({ id: admin.id, email: admin.email });
    // That use counts: another 2 hours less a minute later it still works.
    expect(await getAdmin(request, almostIdle + SESSION_IDLE_MS - MINUTE)).toEqual({ id: admin.id, email: admin.email });

    // A second session, never used: gone 2 hours after it was opened.
    const other = await signedInAdmin();
    const otherStart = (await sessionOf(other.id)).lastSeenAt.getTime();
    const otherRequest = requestWith(other.cookie);
    expect(await getAdmin(otherRequest, otherStart + SESSION_IDLE_MS)).toBeNull();
  });

  it("ends 12 hours after sign-in however often it is used", async () => {
    const admin = await signedInAdmin();
    const request = requestWith(admin.cookie);
    const { lastSeenAt, expiresAt } = await sessionOf(admin.id);
    expect(expiresAt.getTime() - lastSeenAt.getTime()).toBeGreaterThan(SESSION_MAX_MS - MINUTE);
    expect(expiresAt.getTime() - lastSeenAt.getTime()).toBeLessThanOrEqual(SESSION_MAX_MS + MINUTE);

    // Used every 100 minutes, so it never goes idle.
    let now = lastSeenAt.getTime();
    while (now + 100 * MINUTE < expiresAt.getTime()) {
      now += 100 * MINUTE;
      expect(await getAdmin(request, now), `still signed in at +${(now - lastSeenAt.getTime()) / MINUTE} min`).not.toBeNull();
    }
    expect(await getAdmin(request, expiresAt.getTime() - 1)).not.toBeNull();
    expect(await getAdmin(request, expiresAt.getTime())).toBeNull();
    expect(await getAdmin(request, expiresAt.getTime() + MINUTE)).toBeNull();
  });

  it("a password reset ends the operator's sessions; only the new password signs in", async () => {
    const admin = await signedInAdmin();
    const bystander = await signedInAdmin("bystander");
    const newPassword = `a brand new password ${randomUUID().slice(0, 8)}`;
    await upsertAdmin(admin.email, newPassword);

    expect((await me(admin.cookie)).status).toBe(401);
    expect((await callFunction("get-dashboard", {}, { cookie: admin.cookie })).status).toBe(401);
    // Other operators stay signed in.
    expect((await me(bystander.cookie)).status).toBe(200);

    expect((await login(admin.email, admin.password)).status).toBe(401);
    const fresh = await login(admin.email, newPassword);
    expect(fresh.status).toBe(200);
    expect((await me(sessionCookie(fresh) ?? "")).status).toBe(200);
  });

  it("a cookie with a forged signature or an unknown token signs no one in", async () => {
    const admin = await signedInAdmin();
    const value = admin.cookie.slice(ADMIN_COOKIE.length + 1);
    const flipped = value.slice(0, -2) + (value.at(-2) === "A" ? "B" : "A") + value.slice(-1);
    expect((await me(`${ADMIN_COOKIE}=${flipped}`)).status).toBe(401);
    expect(await getAdmin(requestWith(`${ADMIN_COOKIE}=garbage`))).toBeNull();
    // Correctly signed (with the shop's secret) but naming no session.
    const unknown = await createCookie(ADMIN_COOKIE, { secrets: [sessionSecret] }).serialize(randomBytes(32).toString("base64url"));
    expect((await me(unknown.split(";")[0])).status).toBe(401);
  });
});
