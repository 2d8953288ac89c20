import { beforeAll, describe, expect, it } from "vitest";
import type { AnyFunction } from "~/functions/define.server";
import { FUNCTION_NAMES, functions, functionsFor } from "~/functions/registry.server";
import { hasPermission } from "~/lib/operators";
import { UNACCEPTABLE_TEXT } from "~/lib/text";
import { loader as meLoader } from "~/routes/auth.me";
import { callFunction, callRoute, functionHandler, readJson, shopRequest, signedInAdmin, type ErrorJson } from "../utils";

/**
 * Every function the registry declares (app/functions/registry.server.ts),
 * tried the same ways: no list of functions is kept here, so a function
 * added to the registry is tried by each of these the day it is added.
 */

const declared = FUNCTION_NAMES.map((name) => ({ name, declaration: functions[name] as AnyFunction }));
const withBody = declared.filter(({ declaration }) => declaration.body !== undefined && declaration.multipart === undefined);
const operators = declared.filter(({ declaration }) => declaration.access !== "public");

let owner: Awaited<ReturnType<typeof signedInAdmin>>;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  owner = await signedInAdmin("functions-owner", "owner");
  staff = await signedInAdmin("functions-staff", "staff");
});

/** The body with every string in it made hostile: `text` appended to each. */
function hostileCopy(value: unknown, text: string): unknown {
  if (typeof value === "string") return `${value}${text}`;
  if (Array.isArray(value)) return value.map((item) => hostileCopy(item, text));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hostileCopy(item, text)]));
  return value;
}

const hasString = (value: unknown): boolean =>
  typeof value === "string" ||
  (Array.isArray(value) ? value.some(hasString) : value !== null && typeof value === "object" && Object.values(value).some(hasString));

describe("the registry", () => {
  it("declares functions, each with an example body its own schema accepts", () => {
    expect(declared.length).toBeGreaterThan(30);
    for (const { name, declaration } of withBody) {
      expect(declaration.example, `${name} has no example body`).toBeDefined();
      const parsed = declaration.body.safeParse(declaration.example);
      expect(parsed.success ? null : parsed.error.issues, name).toBeNull();
    }
  });

  it("tells each role the functions it may call, from each function's declared permission", async () => {
    for (const [who, role] of [
      [owner, "owner"],
      [staff, "staff"],
    ] as const) {
      const me = await readJson<{ role: string; functions: string[] }>(await callRoute(meLoader, shopRequest("/auth/me", { cookie: who.cookie })));
      expect(me.role).toBe(role);
      expect(me.functions).toEqual(functionsFor(role));
      for (const { name, declaration } of operators) {
        expect(me.functions.includes(name), `${role} and ${name}`).toBe(declaration.access !== "public" && hasPermission(role, declaration.access));
      }
    }
    // Staff may not call every function; the owner may.
    expect(functionsFor("owner")).toEqual(FUNCTION_NAMES);
    expect(functionsFor("staff").length).toBeLessThan(FUNCTION_NAMES.length);
  });
});

describe("every function", () => {
  it("answers a GET 405 with Allow: POST, and a name it does not have 404", async () => {
    for (const { name } of declared) {
      const response = await callRoute(functionHandler(name), shopRequest(`/functions/v1/${name}`, { method: "GET", cookie: owner.cookie }));
      expect(response.status, name).toBe(405);
      expect(response.headers.get("Allow"), name).toBe("POST");
    }
    const unknown = await callRoute(functionHandler("get-ordres" as never), shopRequest("/functions/v1/get-ordres", { method: "POST", cookie: owner.cookie }));
    expect(unknown.status).toBe(404);
    expect(await readJson<ErrorJson>(unknown)).toEqual({ error: "There is no such function." });
  });

  it("of an operator's answers 401 without a session, and 403 to staff when the role lacks its permission", async () => {
    for (const { name, declaration } of operators) {
      const body = declaration.example ?? {};
      const anonymous = await callFunction(name, body);
      expect(anonymous.status, name).toBe(401);
      expect(await readJson<ErrorJson>(anonymous), name).toEqual({ error: "Please sign in." });
      if (declaration.access === "public" || hasPermission("staff", declaration.access)) continue;
      const refused = await callFunction(name, body, { cookie: staff.cookie });
      expect(refused.status, name).toBe(403);
      expect(await readJson<ErrorJson>(refused), name).toEqual({ error: "Only the shop's owner can do this." });
    }
  });

  it("refuses NUL and a lone surrogate in any string of its body with a 400, before anything is done (the owner signed in, so the body is read)", async () => {
    const tried = withBody.filter(({ declaration }) => hasString(declaration.example));
    expect(tried.length).toBeGreaterThan(20);
    for (const text of ["\u0000", "\ud800"]) {
      for (const { name, declaration } of tried) {
        const response = await callFunction(name, JSON.stringify(hostileCopy(declaration.example, text)), { cookie: owner.cookie });
        expect(response.status, name).toBe(400);
        expect(await readJson<ErrorJson>(response), name).toEqual({ error: UNACCEPTABLE_TEXT });
      }
    }
  });

  it("answers a body that is not JSON 400, and one sent as a form 415", async () => {
    for (const { name } of withBody) {
      const broken = await callFunction(name, "{", { cookie: owner.cookie });
      expect(broken.status, name).toBe(400);
      const form = await callFunction(name, "a=1", { cookie: owner.cookie, contentType: "application/x-www-form-urlencoded" });
      expect(form.status, name).toBe(415);
    }
  });
});
