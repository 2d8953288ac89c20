/**
 * Creates an operator account, or resets its password (ending its sessions):
 *   npm run admin:create -- --email you@example.com --password 'a long passphrase'
 */
import { parseArgs } from "node:util";
import { MIN_PASSWORD_LENGTH, upsertAdmin } from "../app/utils/auth.server";
import { db } from "../app/utils/db.server";

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } } });

if (!values.email || !values.password) {
  console.error(`Usage: npm run admin:create -- --email <email> --password <password (${MIN_PASSWORD_LENGTH}+ characters)>`);
  process.exit(2);
}

try {
  const user = await upsertAdmin(values.email, values.password);
  console.log(`Admin ${user.email} is ready. Sign in at /admin.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
