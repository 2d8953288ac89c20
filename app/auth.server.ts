import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { createCookie, json } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { db } from "~/db.server";
import { secureCookies, sessionSecret } from "~/env.server";
import { isEmailAddress } from "~/lib/email";

/**
 * Operator sign-in (DESIGN.md §7): scrypt password hashes, sessions in the
 * database (the cookie holds a random token; the database only its SHA-256),
 * idle and absolute expiry, sign-out that ends the session on the server,
 * and throttling of failed sign-ins per address and per account.
 */

export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

export type Admin = { id: string; email: string };

const adminCookie = createCookie("chillpb_admin", {
  httpOnly: true,
  sameSite: "lax",
  secure: secureCookies,
  path: "/",
  secrets: [sessionSecret],
  maxAge: SESSION_MAX_MS / 1000,
});

// --- Passwords ------------------------------------------------------------

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64 };

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string) {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string) {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** Compared against when the account does not exist, so both cases take the same time. */
const decoyHash = hashPassword(randomBytes(16).toString("hex"));

// --- Sign-in --------------------------------------------------------------

export class SignInError extends Error {}

const authenticator = new Authenticator<Admin>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "").trim().toLowerCase();
    const password = String(form.get("password") ?? "");
    if (!isEmailAddress(email) || !password) throw new SignInError("Enter your email and password.");
    const user = await db.adminUser.findUnique({ where: { email } });
    const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
    if (!user || !valid) throw new SignInError("Wrong email or password.");
    return { id: user.id, email: user.email };
  }),
  "form",
);

/**
 * Sign-in attempts per address and per account, in fixed 15-minute windows.
 * The current and the previous window count together, so a lock lasts a full
 * window however late in one it began.
 */
function attemptKeys(email: string, clientAddress: string, now: number) {
  const window = Math.floor(now / FAILURE_WINDOW_MS);
  const keys = (w: number) => [`login-ip:${clientAddress}:${w}`, `login-email:${email}:${w}`];
  return { current: keys(window), previous: keys(window - 1) };
}

/**
 * Counts this attempt before the password is checked, in one atomic step per
 * key, so a burst of simultaneous guesses cannot slip past the limit.
 * Returns false when the address or the account is over it.
 */
async function countAttempt(email: string, clientAddress: string, now: number) {
  const { current, previous } = attemptKeys(email, clientAddress, now);
  const expiresAt = new Date(now + 2 * FAILURE_WINDOW_MS);
  const earlier = new Map(
    (await db.rateLimitWindow.findMany({ where: { key: { in: previous } } })).map((row) => [row.key, row.count]),
  );
  let allowed = true;
  for (const [index, key] of current.entries()) {
    const row = await db.rateLimitWindow.upsert({
      where: { key },
      create: { key, count: 1, expiresAt },
      update: { count: { increment: 1 } },
    });
    if (row.count + (earlier.get(previous[index]!) ?? 0) > MAX_FAILURES) allowed = false;
  }
  return allowed;
}

/** A successful sign-in is not a failure: take its attempt back. */
async function forgiveAttempt(email: string, clientAddress: string, now: number) {
  await db.rateLimitWindow.updateMany({
    where: { key: { in: attemptKeys(email, clientAddress, now).current }, count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}

export type SignInResult = { ok: true; admin: Admin; setCookie: string } | { ok: false; status: number; error: string };

/** Checks the form's email and password; on success opens a session and returns its cookie. */
export async function signIn(form: FormData, clientAddress: string, now = Date.now()): Promise<SignInResult> {
  const email = String(form.get("email") ?? "").trim().toLowerCase().slice(0, 254);
  if (!(await countAttempt(email, clientAddress, now))) {
    return { ok: false, status: 429, error: "Too many failed sign-ins. Please wait 15 minutes and try again." };
  }
  let admin: Admin;
  try {
    const body = new URLSearchParams();
    for (const name of ["email", "password"]) body.set(name, String(form.get(name) ?? ""));
    admin = await authenticator.authenticate("form", new Request("http://admin.local/auth/login", { method: "POST", body }));
  } catch (error) {
    const message = error instanceof SignInError ? error.message : "Wrong email or password.";
    if (!(error instanceof SignInError)) console.error("Sign-in failed unexpectedly", error);
    return { ok: false, status: 401, error: message };
  }

  await forgiveAttempt(email, clientAddress, now);
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
  return { ok: true, admin, setCookie: await adminCookie.serialize(token) };
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
  return { id: session.user.id, email: session.user.email };
}

/** Guard for the order functions: answers 401 JSON to anyone not signed in. */
export async function requireAdmin(request: Request): Promise<Admin> {
  const admin = await getAdmin(request);
  if (!admin) throw json({ error: "Please sign in." }, { status: 401, headers: { "Cache-Control": "no-store" } });
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

// --- Accounts -------------------------------------------------------------

export const MIN_PASSWORD_LENGTH = 12;

/** Creates an admin or resets their password; a reset also ends their sessions. */
export async function upsertAdmin(rawEmail: string, password: string) {
  const email = rawEmail.trim().toLowerCase();
  if (!isEmailAddress(email)) throw new Error(`"${rawEmail}" is not an email address`);
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hashPassword(password);
  const user = await db.adminUser.upsert({ where: { email }, create: { email, passwordHash }, update: { passwordHash } });
  await db.adminSession.updateMany({ where: { userId: user.id, revokedAt: null, createdAt: { lt: new Date() } }, data: { revokedAt: new Date() } });
  return user;
}
