import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Operators' passwords (docs/architecture.md §7): scrypt hashes with a random salt, the
 * parameters kept in the stored string so that they can grow. No HTTP here:
 * sign-in (utils/auth.server.ts) and the account changes
 * (models/operators.server.ts) both call it.
 */

export const MIN_PASSWORD_LENGTH = 12;

/**
 * Why a new password is refused, or null: at least MIN_PASSWORD_LENGTH
 * characters that are not spaces (twelve spaces, or a word padded with them,
 * guard nothing), and no control characters. Spaces inside a passphrase are
 * welcome.
 */
export function newPasswordProblem(password: string): string | null {
  if (password.replace(/\s/g, "").length < MIN_PASSWORD_LENGTH) return `needs at least ${MIN_PASSWORD_LENGTH} characters besides spaces`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(password)) return "must not hold control characters";
  return null;
}

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64 };

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))));
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
