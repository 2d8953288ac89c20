import { createHash, createHmac, randomBytes } from "node:crypto";
import { createCookie, json } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { db } from "~/utils/db.server";
import { secureCookies, sessionSecret } from "~/utils/env.server";
import { EMAIL_MAX_LENGTH, isEmailAddress, normalizeEmail } from "~/lib/email";
import { hasPermission, OWNER_ONLY_MESSAGE, type Admin, type Permission } from "~/lib/operators";
import { hashPassword, verifyPassword } from "~/models/passwords.server";
import { describeError } from "~/utils/errors.server";
import { clearBackoff, releaseBackoffAttempt, reserveBackoffAttempt, type BackoffPolicy, type BackoffReservation } from "~/utils/rate-limit.server";

/**
 * Operator sign-in (docs/architecture.md §7): passwords checked against their scrypt
 * hashes (models/passwords.server.ts), sessions in the database (the cookie
 * holds a random token; the database only its SHA-256), idle and absolute
 * expiry, sign-out that ends the session on the server, and throttling of failed sign-ins per account-and-address pair, per
 * address and per account (a browser known to the account excepted), with growing delays rather than a lock.
 */

export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

const adminCookie = createCookie("chillpb_admin", {
  httpOnly: true,
  sameSite: "lax",
  secure: secureCookies,
  path: "/",
  secrets: [sessionSecret],
  maxAge: SESSION_MAX_MS / 1000,
});

// --- Sign-in --------------------------------------------------------------

/** Compared against when the account does not exist, so both cases take the same time. */
const decoyHash = hashPassword(randomBytes(16).toString("hex"));

class SignInError extends Error {}

const authenticator = new Authenticator<Admin>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = normalizeEmail(String(form.get("email") ?? ""));
    const password = String(form.get("password") ?? "");
    if (!isEmailAddress(email) || !password) throw new SignInError("Enter your email and password.");
    const user = await db.adminUser.findUnique({ where: { email } });
    const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
    if (!user || !valid) throw new SignInError("Wrong email or password.");
    return { id: user.id, email: user.email, role: user.role };
  }),
  "form",
);

/**
 * Throttling failed sign-ins (a security review: keyed on the account alone,
 * five wrong passwords from anywhere locked the real operator out).
 *
 * - Per account-and-address pair: 5 free failures, then the pair waits 1 s,
 *   2 s, 4 s … up to 15 minutes before its next try counts. Another address
 *   signing in to the same account is never affected. Remembered for a day
 *   after the last wait, so a slow guesser stays at the longest wait.
 * - Per address, across all accounts: 20 free failures, then the same growing
 *   waits, for every account tried from that address. Forgotten 15 minutes
 *   after the last wait.
 *
 * Tries during a wait answer 429 with Retry-After and are not counted. A
 * successful sign-in clears the pair and takes its attempt back from the
 * address. Keys are HMACs of the email and address (no email or address in
 * the database, and one bounded length); every row carries an expiry and
 * expired rows are swept by the rate-limit sweeper (utils/rate-limit.server.ts).
 */
const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const PAIR_THROTTLE: BackoffPolicy = { freeAttempts: 5, baseDelayMs: SECOND_MS, maxDelayMs: 15 * MINUTE_MS, memoryMs: 24 * 60 * MINUTE_MS };
const ADDRESS_THROTTLE: BackoffPolicy = { freeAttempts: 20, baseDelayMs: SECOND_MS, maxDelayMs: 15 * MINUTE_MS, memoryMs: 15 * MINUTE_MS };
/**
 * Per account, from every address together (decision 080): guesses spread
 * over many addresses (30 addresses, one guess each, all answered 401 before)
 * are slowed too. 10 free failures an hour, then 1 s, 2 s, 4 s … at most 5
 * minutes: a guesser gets about a dozen tries an hour. Never a lockout of the
 * real owner: a browser that has signed in to the account before carries a
 * signed device cookie (OWASP's "device cookies") and skips this throttle,
 * and a new one waits at most 5 minutes.
 */
const ACCOUNT_THROTTLE: BackoffPolicy = { freeAttempts: 10, baseDelayMs: SECOND_MS, maxDelayMs: 5 * MINUTE_MS, memoryMs: 60 * MINUTE_MS };

/** How long a browser counts as one the account has signed in from (the device cookie's life). */
const KNOWN_DEVICE_MS = 90 * 24 * 60 * MINUTE_MS;

/** The device cookie: signed, holding only an HMAC of the account's email, on the sign-in path alone. */
const deviceCookie = createCookie("chillpb_device", {
  httpOnly: true,
  sameSite: "lax",
  secure: secureCookies,
  path: "/auth",
  secrets: [sessionSecret],
  maxAge: KNOWN_DEVICE_MS / 1000,
});

const deviceMark = (email: string) => throttleHash(`device\0${email}`);

/** The accounts' marks the request's device cookie holds: those this browser has signed in to (none without a valid cookie). */
async function deviceMarks(cookieHeader: string | null): Promise<string[]> {
  const marks: unknown = await deviceCookie.parse(cookieHeader);
  return Array.isArray(marks) ? marks.filter((mark): mark is string => typeof mark === "string") : [];
}

/** The device cookie after a sign-in to `email`: this account's mark first, then those the browser had (a few accounts at most). */
function knownDeviceCookie(marks: string[], email: string) {
  const mark = deviceMark(email);
  return deviceCookie.serialize([mark, ...marks.filter((other) => other !== mark)].slice(0, 5));
}

function throttleHash(value: string) {
  return createHmac("sha256", sessionSecret).update(value).digest("hex").slice(0, 32);
}

function throttleKeys(email: string, clientAddress: string) {
  return {
    pair: `signin-pair:${throttleHash(`pair\0${email}\0${clientAddress}`)}`,
    address: `signin-address:${throttleHash(`address\0${clientAddress}`)}`,
    account: `signin-account:${throttleHash(`account\0${email}`)}`,
  };
}

function describeWait(ms: number) {
  const seconds = Math.max(1, Math.ceil(ms / SECOND_MS));
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function throttled(retryAfterMs: number): SignInResult {
  return {
    ok: false,
    reason: "throttled",
    error: `Too many failed sign-ins. Please wait ${describeWait(retryAfterMs)} and try again.`,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / SECOND_MS)),
  };
}

export type Credentials = { email: string; password: string };

export type SignInResult =
  /** `setCookies`: the session's cookie and the device cookie that marks this browser as the account's. */
  | { ok: true; admin: Admin; setCookies: string[] }
  | { ok: false; reason: "refused"; error: string }
  /** `retryAfterSeconds`: how long until the next try counts. */
  | { ok: false; reason: "throttled"; error: string; retryAfterSeconds: number };

/** Where a sign-in comes from: the client's address, and the Cookie header (the device cookie in it). */
export type SignInOrigin = { clientAddress: string; cookieHeader: string | null };

/** Checks an email and password; on success opens a session and returns its cookies. */
export async function signIn(credentials: Credentials, { clientAddress, cookieHeader }: SignInOrigin, now = Date.now()): Promise<SignInResult> {
  const email = normalizeEmail(credentials.email).slice(0, EMAIL_MAX_LENGTH);
  // Every attempt counts before the password is checked (as a failure, until it succeeds).
  const keys = throttleKeys(email, clientAddress);
  const address = await reserveBackoffAttempt(keys.address, ADDRESS_THROTTLE, now);
  if (!address.allowed) return throttled(address.retryAfterMs);
  const pair = await reserveBackoffAttempt(keys.pair, PAIR_THROTTLE, now);
  if (!pair.allowed) {
    await releaseBackoffAttempt(address.reservation);
    return throttled(pair.retryAfterMs);
  }
  // A browser the account has signed in from before is not slowed by what others try against the account.
  const knownAccounts = await deviceMarks(cookieHeader);
  let accountReservation: BackoffReservation | null = null;
  if (!knownAccounts.includes(deviceMark(email))) {
    const account = await reserveBackoffAttempt(keys.account, ACCOUNT_THROTTLE, now);
    if (!account.allowed) {
      await releaseBackoffAttempt(address.reservation);
      await releaseBackoffAttempt(pair.reservation);
      return throttled(account.retryAfterMs);
    }
    accountReservation = account.reservation;
  }
  let admin: Admin;
  try {
    const body = new URLSearchParams({ email: credentials.email, password: credentials.password });
    admin = await authenticator.authenticate("form", new Request("http://admin.local/auth/login", { method: "POST", body }));
  } catch (error) {
    const message = error instanceof SignInError ? error.message : "Wrong email or password.";
    if (!(error instanceof SignInError)) console.error(`Sign-in failed unexpectedly: ${describeError(error)}`);
    return { ok: false, reason: "refused", error: message };
  }

  await clearBackoff(keys.pair);
  await releaseBackoffAttempt(address.reservation);
  // This attempt was no failure; the account's earlier failures stay (below).
  if (accountReservation) await releaseBackoffAttempt(accountReservation);
  const token = randomBytes(32).toString("base64url");
  await db.adminSession.create({
    data: {
      id: tokenHash(token),
      userId: admin.id,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + SESSION_MAX_MS),
    },
  });
  // The account's failures are not cleared: a guesser elsewhere would get its free tries back with each real sign-in.
  return { ok: true, admin, setCookies: [await adminCookie.serialize(token), await knownDeviceCookie(knownAccounts, email)] };
}

// --- Sessions ---------------------------------------------------------------

function tokenHash(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

async function readToken(request: Request): Promise<string | null> {
  const token: unknown = await adminCookie.parse(request.headers.get("Cookie"));
  return typeof token === "string" && token.length > 20 ? token : null;
}

/** The signed-in admin, or null. Touches the session so that idle expiry counts from now. */
export async function getAdmin(request: Request, now = Date.now()): Promise<Admin | null> {
  const token = await readToken(request);
  if (!token) return null;
  const session = await db.adminSession.findUnique({ where: { id: tokenHash(token) }, include: { user: true } });
  if (!session || session.revokedAt) return null;
  if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + SESSION_IDLE_MS <= now) return null;
  if (now - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.adminSession.update({ where: { id: session.id }, data: { lastSeenAt: new Date(now) } });
  }
  return { id: session.user.id, email: session.user.email, role: session.user.role };
}

/**
 * Guard for the dashboard's functions: answers 401 JSON to anyone not signed
 * in, and 403 JSON to an operator whose role lacks the permission.
 */
export async function requireAdmin(request: Request, permission: Permission = "orders.view"): Promise<Admin> {
  const admin = await getAdmin(request);
  if (!admin) throw json({ error: "Please sign in." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  if (!hasPermission(admin.role, permission)) {
    throw json({ error: OWNER_ONLY_MESSAGE }, { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  return admin;
}

/** Ends the session on the server (the old cookie no longer works) and clears the cookie. */
export async function signOut(request: Request) {
  const token = await readToken(request);
  if (token) {
    await db.adminSession.updateMany({ where: { id: tokenHash(token), revokedAt: null }, data: { revokedAt: new Date() } });
  }
  return adminCookie.serialize("", { maxAge: 0 });
}
