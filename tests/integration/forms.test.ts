import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import type { LandingFormResult } from "~/routes/_index/landing.server";
import { action as landingAction } from "~/routes/_index/route";
import {
  callFunction,
  callRoute,
  formRequest,
  readJson,
  uniqueEmail,
  type CallInit,
  type ErrorJson,
  type FunctionName,
  type OkJson,
  type ShopRequestInit,
} from "../utils";

/**
 * The newsletter and partnership forms: the two /functions/v1 endpoints and
 * the landing page's form action. Every refusal stores nothing and queues no
 * email; the rate limit counts per address.
 */

const MISSING_INFORMATION = { title: "Missing Information", error: "Please fill in all required fields." };
/** The spec's words for a bad address (the toast's text; the field itself says `Enter a valid email address`). */
const INVALID_EMAIL_MESSAGE = "Please enter a valid email address.";
const SENT = "Thank you for your interest! We'll be in touch soon.";
const TEAM_EMAIL = "hello@chillpb.example";
const LIMIT = env.RATE_LIMIT_PER_MINUTE;

type PartnershipErrorJson = ErrorJson & { fieldErrors?: Record<string, string> };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function inquiry(overrides: Record<string, unknown> = {}) {
  return {
    name: "Dana Whitfield",
    email: uniqueEmail("dana"),
    business: "Sunset Juice Bar",
    message: "We'd love to stock your frozen bites in our two stores.",
    ...overrides,
  };
}

async function storedCounts() {
  const [subscribers, inquiries, outbox] = await Promise.all([db.subscriber.count(), db.partnershipInquiry.count(), db.outboxMessage.count()]);
  return { subscribers, inquiries, outbox };
}

/** Runs `request` and checks that no subscriber, inquiry or email was stored meanwhile; returns its result. */
async function storesNothing<T>(request: () => Promise<T>): Promise<T> {
  const before = await storedCounts();
  const result = await request();
  expect(await storedCounts(), "nothing should be stored").toEqual(before);
  return result;
}

/** Freezes the clock a few seconds into a minute, so a fixed rate-limit window cannot roll over mid-test. */
function freezeClockEarlyInAMinute() {
  const now = new Date();
  now.setUTCSeconds(5, 0);
  vi.useFakeTimers({ toFake: ["Date"], now });
  return now;
}

describe("send-welcome-email", () => {
  it("signs the address up and queues one welcome email", async () => {
    const email = uniqueEmail("welcome");
    const response = await callFunction("send-welcome-email", { email: `  ${email.toUpperCase()} ` });
    expect(response.status).toBe(200);
    expect(await readJson<OkJson>(response)).toEqual({ ok: true });

    // Kept and mailed as typed (trimmed); one sign-up per canonical mailbox.
    const subscriber = await db.subscriber.findUniqueOrThrow({ where: { mailbox: email } });
    expect(subscriber).toMatchObject({ email: email.toUpperCase(), unsubscribedAt: null });
    const emails = await db.outboxMessage.findMany({ where: { to: email.toUpperCase() } });
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      kind: "newsletter-welcome",
      status: "pending",
      unsubscribeUrl: `http://shop.test/unsubscribe?token=${subscriber.unsubscribeToken}`,
    });
  });

  it("answers 400 when the email is missing or empty", async () => {
    for (const [body, answer] of [
      // Refused by the body's schema: the field named, as every function's schema names it.
      [{}, { error: "email: is required", fieldErrors: { email: "is required" } }],
      [{ email: "" }, { error: "Please enter your email address." }],
      [{ email: "   " }, { error: "Please enter your email address." }],
    ] as const) {
      const response = await storesNothing(() => callFunction("send-welcome-email", body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await readJson<ErrorJson>(response)).toEqual(answer);
    }
  });

  it("answers 400 with the spec's text for an invalid email", async () => {
    for (const email of ["not-an-email", "a@b", "two words@example.com", "@example.com", "eve@example.com\r\nBcc: x@y.z", "eve\n@example.com"]) {
      const response = await storesNothing(() => callFunction("send-welcome-email", { email }));
      expect(response.status, JSON.stringify(email)).toBe(400);
      expect(await readJson<ErrorJson>(response)).toEqual({ error: INVALID_EMAIL_MESSAGE });
    }
  });

  it("answers 413 to a body over 32 kB and stores nothing", async () => {
    const response = await storesNothing(() => callFunction("send-welcome-email", { email: uniqueEmail("big"), padding: "x".repeat(100 * 1024) }));
    expect(response.status).toBe(413);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: "Request body is too large." });
  });

  it("answers 415 to a body that is not JSON", async () => {
    const response = await storesNothing(() => callFunction("send-welcome-email", JSON.stringify({ email: uniqueEmail() }), { contentType: "text/plain" }));
    expect(response.status).toBe(415);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });

  it("answers 403 to a cross-site request and stores nothing", async () => {
    const response = await storesNothing(() => callFunction("send-welcome-email", { email: uniqueEmail() }, { headers: { Origin: "https://evil.example" } }));
    expect(response.status).toBe(403);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });

  it("accepts a request from the shop's own origin", async () => {
    const response = await callFunction("send-welcome-email", { email: uniqueEmail() }, { headers: { Origin: "http://shop.test" } });
    expect(response.status).toBe(200);
  });

  it("answers 200 to a bot that fills in the honeypot, and stores nothing", async () => {
    const email = uniqueEmail("bot");
    const response = await storesNothing(() => callFunction("send-welcome-email", { email, website: "http://spam.example" }));
    expect(response.status).toBe(200);
    expect(await readJson<OkJson>(response)).toEqual({ ok: true });
    expect(await db.subscriber.findFirst({ where: { email } })).toBeNull();
  });
});

describe("send-partnership-inquiry", () => {
  it("stores the inquiry and queues one email to the team", async () => {
    const body = inquiry({ email: uniqueEmail("Dana").toUpperCase() });
    const response = await callFunction("send-partnership-inquiry", body);
    expect(response.status).toBe(200);
    expect(await readJson<OkJson>(response)).toEqual({ ok: true, message: SENT });

    const saved = await db.partnershipInquiry.findFirstOrThrow({ where: { email: body.email.toLowerCase() } });
    expect(saved).toMatchObject({ name: body.name, business: body.business, message: body.message });
    const emails = await db.outboxMessage.findMany({ where: { kind: "partnership-inquiry", text: { contains: saved.email } } });
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: TEAM_EMAIL, status: "pending", unsubscribeUrl: null });
  });

  it("the business name is optional", async () => {
    for (const business of [undefined, null, ""]) {
      const body = inquiry({ business });
      const response = await callFunction("send-partnership-inquiry", body);
      expect(response.status, String(business)).toBe(200);
      expect((await db.partnershipInquiry.findFirstOrThrow({ where: { email: body.email } })).business).toBeNull();
    }
  });

  it("answers 400 Missing Information when a required field is missing or blank", async () => {
    const { name: _name, ...withoutName } = inquiry();
    const { message: _message, ...withoutMessage } = inquiry();
    const { email: _email, ...withoutEmail } = inquiry();
    for (const body of [{}, withoutName, withoutMessage, withoutEmail, inquiry({ name: "   " }), inquiry({ message: " \n " })]) {
      const response = await storesNothing(() => callFunction("send-partnership-inquiry", body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await readJson<PartnershipErrorJson>(response)).toMatchObject(MISSING_INFORMATION);
    }
  });

  it("answers 400 Invalid Email for an invalid email", async () => {
    for (const email of ["not-an-email", "a@b", "two words@example.com", "eve@example.com\r\nBcc: x@y.z"]) {
      const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry({ email })));
      expect(response.status, JSON.stringify(email)).toBe(400);
      expect(await readJson<PartnershipErrorJson>(response)).toMatchObject({ title: "Invalid Email", error: INVALID_EMAIL_MESSAGE });
    }
  });

  it("refuses a line break in the name or business (header injection) and stores nothing", async () => {
    for (const overrides of [{ name: "Eve\r\nBcc: x@y.z" }, { name: "Eve\nBcc: x@y.z" }, { business: "Eve's\r\nBcc: x@y.z" }]) {
      const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry(overrides)));
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      const body = await readJson<PartnershipErrorJson>(response);
      expect(body.error).toEqual(expect.any(String));
      expect(body.fieldErrors).toEqual(expect.objectContaining(Object.fromEntries(Object.keys(overrides).map((key) => [key, expect.any(String)]))));
    }
  });

  it("refuses bidi controls and zero-width characters in the name, the business and the message, and stores nothing", async () => {
    // U+202E turns "Eve" + "moc.liam" into what reads as a different name in the admin, a packing slip and a CSV.
    for (const overrides of [{ name: "Eve\u202Emoc.liam" }, { name: "Ev\u200Be" }, { business: "Sh\uFEFFop" }, { message: "Please call \u2066me\u2069" }]) {
      const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry(overrides)));
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      const body = await readJson<PartnershipErrorJson>(response);
      expect(Object.keys(body.fieldErrors ?? {})).toEqual(Object.keys(overrides));
    }
    // Emoji written with zero-width joiners are a name like any other.
    expect((await callFunction("send-partnership-inquiry", inquiry({ name: "😀 Famil\u200Dy 👨\u200D👩\u200D👧" }))).status).toBe(200);
  });

  it("keeps line breaks in the message itself", async () => {
    const body = inquiry({ message: "Line one\r\nLine two\nBcc: not-a-header@example.com" });
    expect((await callFunction("send-partnership-inquiry", body)).status).toBe(200);
    expect((await db.partnershipInquiry.findFirstOrThrow({ where: { email: body.email } })).message).toContain("Line two");
  });

  it("answers 413 to a 100 kB message and stores nothing", async () => {
    const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry({ message: "x".repeat(100 * 1024) })));
    expect(response.status).toBe(413);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });

  it("answers 400 to a message over 5,000 characters that fits the body limit", async () => {
    const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry({ message: "x".repeat(6_000) })));
    expect(response.status).toBe(400);
    // The field error names the limit; the form's message is the general one.
    const body = await readJson<PartnershipErrorJson>(response);
    expect(body.fieldErrors).toEqual({ message: "At most 5,000 characters" });
    expect(body.title).toBe("Check Your Details");
  });

  it("answers 415 to a text/plain body", async () => {
    const response = await storesNothing(() => callFunction("send-partnership-inquiry", JSON.stringify(inquiry()), { contentType: "text/plain" }));
    expect(response.status).toBe(415);
  });

  it("answers 403 to a cross-site request and stores nothing", async () => {
    const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry(), { headers: { Origin: "https://evil.example" } }));
    expect(response.status).toBe(403);
    expect(await readJson<ErrorJson>(response)).toEqual({ error: expect.any(String) });
  });

  it("answers 200 to a bot that fills in the honeypot, and stores nothing", async () => {
    const response = await storesNothing(() => callFunction("send-partnership-inquiry", inquiry({ website: "spam" })));
    expect(response.status).toBe(200);
    expect(await readJson<OkJson>(response)).toEqual({ ok: true, message: SENT });
  });
});

type LandingInit = CallInit & Pick<ShopRequestInit, "accept" | "origin">;

/** POSTs the landing page's form the way a browser does, straight into the route's action. */
function postLanding(fields: Record<string, string>, { clientAddress, accept = "application/json", origin }: LandingInit = {}) {
  const request = formRequest("/?index", fields, { contentType: "application/x-www-form-urlencoded;charset=UTF-8", accept, origin });
  return callRoute(landingAction, request, { clientAddress });
}

async function landingJson(response: Response) {
  expect(response.headers.get("Content-Type")).toContain("application/json");
  return readJson<LandingFormResult>(response);
}

describe("the landing page's forms", () => {
  it("newsletter: a sign-up answers ok with the welcome toast", async () => {
    const email = uniqueEmail("landing");
    const response = await postLanding({ intent: "newsletter", email });
    expect(response.status).toBe(200);
    expect(await landingJson(response)).toMatchObject({
      form: "newsletter",
      ok: true,
      toast: { title: "Welcome to Chill PB! 🎉", description: expect.stringContaining("WELCOME10") },
      values: {},
    });
    expect(await db.subscriber.findFirst({ where: { email } })).not.toBeNull();
    expect(await db.outboxMessage.count({ where: { to: email, kind: "newsletter-welcome" } })).toBe(1);
  });

  it("newsletter is the default intent", async () => {
    const email = uniqueEmail("default");
    expect(await landingJson(await postLanding({ email }))).toMatchObject({ form: "newsletter", ok: true });
    expect(await db.subscriber.findFirst({ where: { email } })).not.toBeNull();
  });

  it("newsletter: an invalid email answers 400 with the Invalid Email toast and keeps the value", async () => {
    for (const email of ["not-an-email", "eve@example.com\r\nBcc: x@y.z"]) {
      const response = await storesNothing(() => postLanding({ intent: "newsletter", email }));
      expect(response.status).toBe(400);
      expect(await landingJson(response)).toMatchObject({
        ok: false,
        toast: { title: "Invalid Email", description: INVALID_EMAIL_MESSAGE },
        values: { email },
      });
    }
  });

  it("newsletter: an empty email stops silently (200, no toast)", async () => {
    for (const email of ["", "   "]) {
      const response = await storesNothing(() => postLanding({ intent: "newsletter", email }));
      expect(response.status).toBe(200);
      expect(await landingJson(response)).toMatchObject({ form: "newsletter", ok: false, toast: null });
    }
    const plain = await postLanding({ intent: "newsletter", email: "" }, { accept: "text/html" });
    expect(plain.status).toBe(303);
    expect(plain).toHaveRedirect("/#newsletter");
    expect(plain.headers.get("Set-Cookie")).toBeNull();
  });

  it("newsletter: a plain form post is redirected (303) with the toast in a cookie", async () => {
    const email = uniqueEmail("no-js");
    const response = await postLanding({ intent: "newsletter", email }, { accept: "text/html,application/xhtml+xml" });
    expect(response.status).toBe(303);
    expect(response).toHaveRedirect("/#newsletter");
    await expect(response).toSendToast(expect.objectContaining({ title: "Welcome to Chill PB! 🎉" }));
    expect(await db.subscriber.findFirst({ where: { email } })).not.toBeNull();
  });

  it("newsletter: a bot filling in the honeypot is thanked and nothing is stored", async () => {
    const response = await storesNothing(() => postLanding({ intent: "newsletter", email: uniqueEmail("bot"), website: "spam" }));
    expect(await landingJson(response)).toMatchObject({ ok: true, toast: { title: "Welcome to Chill PB! 🎉" } });
  });

  it("partnership: a complete inquiry is stored, queued and thanked", async () => {
    const fields = { intent: "partnership", ...inquiry() };
    const response = await postLanding(fields);
    expect(response.status).toBe(200);
    expect(await landingJson(response)).toMatchObject({ form: "partnership", ok: true, toast: { title: "Message Sent!", description: SENT } });
    const saved = await db.partnershipInquiry.findFirstOrThrow({ where: { email: fields.email } });
    expect(saved).toMatchObject({ name: fields.name, business: fields.business, message: fields.message });
    expect(await db.outboxMessage.count({ where: { kind: "partnership-inquiry", text: { contains: fields.email } } })).toBe(1);
  });

  it("partnership: a plain form post is redirected (303) with the toast in a cookie", async () => {
    const response = await postLanding({ intent: "partnership", ...inquiry() }, { accept: "text/html" });
    expect(response.status).toBe(303);
    expect(response).toHaveRedirect("/");
    await expect(response).toSendToast(expect.objectContaining({ title: "Message Sent!" }));
  });

  it("partnership: missing information answers 400 with the toast, the field errors and the values kept", async () => {
    const fields = { intent: "partnership", name: "Dana Whitfield", email: "dana@example.com", business: "Sunset Juice Bar", message: "" };
    const response = await storesNothing(() => postLanding(fields));
    expect(response.status).toBe(400);
    expect(await landingJson(response)).toMatchObject({
      form: "partnership",
      ok: false,
      toast: { title: MISSING_INFORMATION.title, description: MISSING_INFORMATION.error },
      values: { name: "Dana Whitfield", email: "dana@example.com", business: "Sunset Juice Bar", message: "" },
      fieldErrors: { message: "Required" },
    });
  });

  it("partnership: an invalid email answers 400 Invalid Email; a line break in the name is refused", async () => {
    const invalid = await storesNothing(() => postLanding({ intent: "partnership", ...inquiry({ email: "nope" }) }));
    expect(invalid.status).toBe(400);
    expect(await landingJson(invalid)).toMatchObject({ toast: { title: "Invalid Email" }, fieldErrors: { email: expect.any(String) } });

    const injected = await storesNothing(() => postLanding({ intent: "partnership", ...inquiry({ name: "Eve\r\nBcc: x@y.z" }) }));
    expect(injected.status).toBe(400);
    expect(await landingJson(injected)).toMatchObject({ ok: false, fieldErrors: { name: expect.any(String) } });
  });

  it("answers 403 to a cross-site post and stores nothing", async () => {
    for (const fields of [
      { intent: "newsletter", email: uniqueEmail() },
      { intent: "partnership", ...inquiry() },
    ]) {
      const outcome = await storesNothing(() => postLanding(fields, { origin: "https://evil.example" }));
      expect(outcome).toBeInstanceOf(Response);
      expect(outcome.status).toBe(403);
    }
  });

  it("answers 413 to a form over 16 kB and stores nothing", async () => {
    const outcome = await storesNothing(() => postLanding({ intent: "partnership", ...inquiry({ message: "x".repeat(20 * 1024) }) }));
    expect(outcome).toBeInstanceOf(Response);
    expect(outcome.status).toBe(413);
  });
});

describe("the rate limit", () => {
  it(`is ${LIMIT} requests a minute`, () => {
    expect(LIMIT).toBe(10);
  });

  const functionCases: [FunctionName, (index: number) => Record<string, unknown>][] = [
    ["send-welcome-email", () => ({ email: uniqueEmail("limited") })],
    ["send-partnership-inquiry", () => inquiry()],
  ];
  for (const [name, body] of functionCases) {
    it(`${name}: the ${LIMIT + 1}th request a minute from one address answers 429; other addresses are unaffected`, async () => {
      const now = freezeClockEarlyInAMinute();
      const clientAddress = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
      for (let index = 0; index < LIMIT; index++) {
        const response = await callFunction(name, body(index), { clientAddress });
        expect(response.status, `request ${index + 1}`).toBe(200);
      }

      const refused = await storesNothing(() => callFunction(name, body(LIMIT), { clientAddress }));
      expect(refused.status).toBe(429);
      expect(await readJson<ErrorJson>(refused)).toEqual({ error: expect.stringContaining("Please wait") });
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);

      // Someone else, at the same moment.
      expect((await callFunction(name, body(0), { clientAddress: `198.51.100.7-${randomUUID()}` })).status).toBe(200);

      // The next minute the address may send again.
      vi.setSystemTime(new Date(now.getTime() + 60_000));
      expect((await callFunction(name, body(0), { clientAddress })).status).toBe(200);
    });
  }

  it(`the landing form: the ${LIMIT + 1}th sign-up a minute from one address answers 429 with a toast`, async () => {
    freezeClockEarlyInAMinute();
    const clientAddress = `203.0.113.42-${randomUUID()}`;
    for (let index = 0; index < LIMIT; index++) {
      const response = await postLanding({ intent: "newsletter", email: uniqueEmail("limited") }, { clientAddress });
      expect(response.status, `request ${index + 1}`).toBe(200);
    }
    const email = uniqueEmail("one-too-many");
    const refused = await storesNothing(() => postLanding({ intent: "newsletter", email }, { clientAddress }));
    expect(refused.status).toBe(429);
    expect(await landingJson(refused)).toMatchObject({
      ok: false,
      toast: { title: "Slow down a little", description: expect.stringContaining("Please wait") },
      values: { email },
    });

    // The partnership form counts separately; another address is unaffected.
    expect((await postLanding({ intent: "partnership", ...inquiry() }, { clientAddress })).status).toBe(200);
    expect((await postLanding({ intent: "newsletter", email: uniqueEmail() }, { clientAddress: `198.51.100.8-${randomUUID()}` })).status).toBe(200);
  });

  it("the landing form and the send-welcome-email function share one newsletter limit per address", async () => {
    freezeClockEarlyInAMinute();
    const clientAddress = `203.0.113.43-${randomUUID()}`;
    for (let index = 0; index < LIMIT; index++) {
      expect((await callFunction("send-welcome-email", { email: uniqueEmail("shared") }, { clientAddress })).status).toBe(200);
    }
    expect((await postLanding({ intent: "newsletter", email: uniqueEmail("shared") }, { clientAddress })).status).toBe(429);
  });
});
