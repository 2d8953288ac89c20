import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { auditTrail } from "~/models/audit.server";
import { upsertAdmin } from "~/models/operators.server";
import type { OperatorRow } from "~/lib/operator-accounts";
import { db } from "~/utils/db.server";
import { getAdmin } from "~/utils/auth.server";
import { callFunction, login, readJson, requestWith, signedInAdmin, type ErrorJson, type FunctionName } from "../utils";

/** The owner manages operator accounts (decision 021): add, change role or password, remove. */

type SavedJson = { message: string; operator: OperatorRow };

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

const newEmail = (label = "new") => `${label}-${randomUUID().slice(0, 8)}@chillpb.test`;
const PASSWORD = "a long enough passphrase";

function asOwner(name: FunctionName, body: unknown) {
  return callFunction(name, body, { cookie: owner.cookie });
}

beforeAll(async () => {
  owner = await signedInAdmin("owner", "owner");
  staff = await signedInAdmin("staff", "staff");
});

describe("who may manage operators", () => {
  it("answers 401 without a session and 403 to staff, changing nothing", async () => {
    const email = newEmail();
    for (const name of ["get-operators", "save-operator", "remove-operator"] as const) {
      const body = name === "get-operators" ? {} : { email, role: "owner", password: PASSWORD };
      expect((await callFunction(name, body)).status, name).toBe(401);
      const refused = await callFunction(name, body, { cookie: staff.cookie });
      expect(refused.status, name).toBe(403);
      expect(await readJson<ErrorJson>(refused)).toEqual({ error: "Only the shop's owner can do this." });
    }
    expect(await db.adminUser.findUnique({ where: { email } })).toBeNull();
  });
});

describe("save-operator", () => {
  it.each([
    [{ role: "staff", password: PASSWORD }, /email: is required/],
    [{ email: "not-an-email", role: "staff", password: PASSWORD }, /email: must be an email address/],
    [{ email: newEmail(), role: "admin", password: PASSWORD }, /role: must be one of owner, staff/],
    [{ email: newEmail(), password: PASSWORD }, /role/],
    [{ email: newEmail(), role: "staff", password: "short" }, /password: needs at least 12 characters/],
    [{ email: newEmail(), role: "staff", password: " ".repeat(12) }, /password: needs at least 12 characters besides spaces/],
    [{ email: newEmail(), role: "staff", password: `  ab${" ".repeat(20)}cd  ` }, /password: needs at least 12 characters besides spaces/],
    [{ email: newEmail(), role: "staff", password: "\t".repeat(14) }, /password: needs at least 12 characters besides spaces/],
    [{ email: newEmail(), role: "staff", password: "x".repeat(201) }, /password: must be at most 200/],
    [{ email: newEmail(), role: "staff", password: 123456789012 }, /password: must be text/],
    [{ email: newEmail(), role: "staff" }, /password: is required for a new operator/],
    [{ email: newEmail(), role: "staff", password: PASSWORD, isOwner: true }, /unrecognized/i],
  ])("refuses %j with a 400", async (body, message) => {
    const response = await asOwner("save-operator", body);
    expect(response.status).toBe(400);
    expect((await readJson<ErrorJson>(response)).error).toMatch(message);
  });

  it("takes a passphrase with spaces, and refuses padding from the command line too", async () => {
    const email = newEmail("spaces");
    const saved = await asOwner("save-operator", { email, role: "staff", password: "four words make a passphrase" });
    expect(saved.status).toBe(201);
    await expect(upsertAdmin(newEmail("padded"), " ".repeat(12), "staff")).rejects.toThrow("The password needs at least 12 characters besides spaces");
    await expect(upsertAdmin(newEmail("control"), "a passphrase\u0000ok", "staff")).rejects.toThrow("must not hold control characters");
  });

  it("names each refused field in fieldErrors, for the form to show beside it", async () => {
    const short = await asOwner("save-operator", { email: "not-an-email", role: "staff", password: "short" });
    expect(await readJson<ErrorJson & { fieldErrors?: Record<string, string> }>(short)).toMatchObject({
      fieldErrors: { email: "must be an email address", password: "needs at least 12 characters besides spaces" },
    });
    const missing = await asOwner("save-operator", { email: newEmail(), role: "staff" });
    expect(await readJson<ErrorJson & { fieldErrors?: Record<string, string> }>(missing)).toEqual({
      error: "password: is required for a new operator",
      fieldErrors: { password: "is required for a new operator" },
    });
  });

  it("adds a staff account that can sign in, and records who added it, without the password", async () => {
    const email = newEmail("Added");
    const response = await asOwner("save-operator", { email: `  ${email.toUpperCase()} `, role: "staff", password: PASSWORD });
    expect(response.status).toBe(201);
    const saved = await readJson<SavedJson>(response);
    expect(saved.operator).toMatchObject({ email: email.toLowerCase(), role: "staff" });
    expect(saved.message).toBe(`${email.toLowerCase()} can now sign in as staff.`);
    expect((await login(email, PASSWORD)).status).toBe(200);

    const [entry] = await auditTrail("operator", email.toLowerCase());
    expect(entry).toMatchObject({ actorEmail: owner.email, action: "operator.save", before: null, after: { role: "staff", passwordChanged: true } });
    const stored = await db.auditEntry.findMany({ where: { subjectId: email.toLowerCase() } });
    expect(JSON.stringify(stored)).not.toMatch(/passphrase|scrypt/);
  });

  it("changes a role and ends that operator's sessions at once", async () => {
    const other = await signedInAdmin("promoted", "staff");
    const response = await asOwner("save-operator", { email: other.email, role: "owner" });
    expect(response.status).toBe(200);
    expect((await readJson<SavedJson>(response)).message).toBe(`${other.email} is now an owner.`);
    expect(await getAdmin(requestWith(other.cookie))).toBeNull();
    expect((await auditTrail("operator", other.email))[0]).toMatchObject({ before: { role: "staff" }, after: { role: "owner", passwordChanged: false } });
  });

  it("keeps at least one owner", async () => {
    // Every other owner in this database stepped down: the caller is the last.
    const soleOwner = await signedInAdmin("sole", "owner");
    const others = await db.adminUser.findMany({ where: { role: "owner", NOT: { id: soleOwner.id } }, select: { id: true } });
    await db.adminUser.updateMany({ where: { id: { in: others.map((row) => row.id) } }, data: { role: "staff" } });
    try {
      const response = await callFunction("save-operator", { email: soleOwner.email, role: "staff" }, { cookie: soleOwner.cookie });
      expect(response.status).toBe(409);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: "The shop needs at least one owner." });
      expect((await db.adminUser.findUniqueOrThrow({ where: { id: soleOwner.id } })).role).toBe("owner");
    } finally {
      await db.adminUser.updateMany({ where: { id: { in: others.map((row) => row.id) } }, data: { role: "owner" } });
    }
  });
});

describe("get-operators and remove-operator", () => {
  it("lists every operator with role and last use, and removes one, ending their sessions", async () => {
    const leaving = await signedInAdmin("leaving", "staff");
    const list = await readJson<{ operators: OperatorRow[] }>(await asOwner("get-operators", {}));
    expect(list.operators.find((row) => row.email === leaving.email)).toMatchObject({ role: "staff", lastSeenAt: expect.any(String) });
    expect(JSON.stringify(list)).not.toMatch(/passwordHash|scrypt/);

    const response = await asOwner("remove-operator", { email: leaving.email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(await getAdmin(requestWith(leaving.cookie))).toBeNull();
    expect(await db.adminUser.findUnique({ where: { email: leaving.email } })).toBeNull();
    expect((await auditTrail("operator", leaving.email))[0]).toMatchObject({
      action: "operator.remove",
      actorEmail: owner.email,
      before: { role: "staff" },
      after: null,
    });
  });

  it("refuses to remove the caller's own account, or an unknown one", async () => {
    const self = await asOwner("remove-operator", { email: owner.email });
    expect(self.status).toBe(409);
    expect(await readJson<ErrorJson>(self)).toEqual({ error: "You cannot remove your own account." });
    expect((await asOwner("remove-operator", { email: newEmail() })).status).toBe(404);
    expect((await asOwner("remove-operator", { email: "nope" })).status).toBe(400);
  });
});
