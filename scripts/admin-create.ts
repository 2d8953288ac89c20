/**
 * Creates an operator account, or resets its password and role (ending its sessions):
 *   npm run admin:create -- --email you@example.com --password 'a long passphrase' --role owner
 * Owners manage everything; staff see orders (masked) and move their status.
 */
import { parseArgs } from "node:util";
import { upsertAdmin } from "../app/models/operators.server";
import { MIN_PASSWORD_LENGTH } from "../app/models/passwords.server";
import { db } from "../app/utils/db.server";
import { isOperatorRole, OPERATOR_ROLES } from "../app/lib/operators";

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string" } } });

if (!values.email || !values.password || !isOperatorRole(values.role)) {
  console.error(
    `Usage: npm run admin:create -- --email <email> --password <password (${MIN_PASSWORD_LENGTH}+ characters)> --role <${OPERATOR_ROLES.join("|")}>`,
  );
  process.exit(2);
}

try {
  const user = await upsertAdmin(values.email, values.password, values.role);
  console.log(`${user.role === "owner" ? "Owner" : "Staff"} account ${user.email} is ready. Sign in at /admin.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
