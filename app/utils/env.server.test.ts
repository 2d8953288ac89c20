import { describe, expect, it } from "vitest";
import { parseEnv } from "~/utils/env.server";

/** A production server's settings, complete: each test takes one away or changes one. */
const production = {
  NODE_ENV: "production",
  SESSION_SECRET: "a-long-production-session-secret",
  PUBLIC_URL: "https://chillpb.example",
  STRIPE_SECRET_KEY: "sk_live_example",
  STRIPE_WEBHOOK_SECRET: "whsec_example",
  SMTP_URL: "smtps://shop:password@smtp.example.com:465",
};

const without = (name: keyof typeof production) => {
  const { [name]: _removed, ...rest } = production;
  return rest;
};

/** The problems a refused environment names, one per line. */
function problems(source: Record<string, string | undefined>) {
  try {
    parseEnv(source);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

describe("the environment a production server starts with", () => {
  it("starts with the secrets, the public address, Stripe and a mail server", () => {
    expect(parseEnv(production)).toMatchObject({ NODE_ENV: "production", SMTP_URL: production.SMTP_URL, MOCKS: false });
  });

  it.each(["SESSION_SECRET", "PUBLIC_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const)("refuses to start without %s, and names it", (name) => {
    expect(problems(without(name))).toContain(`${name}: ${name} is required in production`);
  });

  it("refuses to start without SMTP_URL, saying where the email would go instead", () => {
    const message = problems(without("SMTP_URL"));
    expect(message).toContain("SMTP_URL: SMTP_URL is required in production");
    expect(message).toContain("var/mail/");
  });

  it("names every missing value at once", () => {
    const message = problems({ NODE_ENV: "production" }) ?? "";
    for (const name of ["SESSION_SECRET", "PUBLIC_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL"]) {
      expect(message).toContain(`  - ${name}: `);
    }
  });

  it("refuses a mail server address that is not smtp:// or smtps://", () => {
    expect(problems({ ...production, SMTP_URL: "file:///var/mail" })).toContain("SMTP_URL: SMTP_URL must start with smtp:// or smtps://");
    expect(problems({ ...production, SMTP_URL: "smtp://smtp.example.com:587" })).toBeNull();
  });

  it("refuses the stand-ins in production", () => {
    expect(problems({ ...production, MOCKS: "true" })).toContain("MOCKS: MOCKS=true is for the demo and tests only");
  });
});

describe("the environment of the demo and of development", () => {
  it("the demo (npm start without NODE_ENV) needs nothing, and writes its email to var/mail/", () => {
    const demo = parseEnv({ NODE_ENV: "production", DEMO: "true" });
    expect(demo).toMatchObject({ DEMO: true, MOCKS: true });
    expect(demo.SMTP_URL).toBeUndefined();
  });

  it("development and tests need no mail server", () => {
    expect(problems({ NODE_ENV: "development" })).toBeNull();
    expect(problems({ NODE_ENV: "test" })).toBeNull();
  });
});

describe("where the server listens, and which proxies it trusts", () => {
  it("the demo and development listen on the loopback; production on every interface without a proxy, on the loopback behind one counted in hops", () => {
    expect(parseEnv({})).toMatchObject({ HOST: "127.0.0.1", TRUST_PROXY: false });
    expect(parseEnv({ NODE_ENV: "production", DEMO: "true" })).toMatchObject({ HOST: "127.0.0.1" });
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(20),
      PUBLIC_URL: "https://chillpb.example",
      MOCKS: "false",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      SMTP_URL: "smtp://mail.example:587",
    };
    expect(parseEnv(production)).toMatchObject({ HOST: "0.0.0.0", TRUST_PROXY: false });
    expect(parseEnv({ ...production, TRUST_PROXY: "1" })).toMatchObject({ HOST: "127.0.0.1", TRUST_PROXY: 1 });
    expect(parseEnv({ ...production, TRUST_PROXY: "true" })).toMatchObject({ HOST: "127.0.0.1", TRUST_PROXY: 1 });
    expect(parseEnv({ ...production, TRUST_PROXY: "loopback" })).toMatchObject({ HOST: "127.0.0.1" });
    // Proxies on other machines reach the shop over the network: it listens on every interface, trusting only them.
    expect(parseEnv({ ...production, TRUST_PROXY: "10.0.0.2, 10.0.1.0/24" })).toMatchObject({ HOST: "0.0.0.0", TRUST_PROXY: ["10.0.0.2", "10.0.1.0/24"] });
    expect(parseEnv({ ...production, TRUST_PROXY: "false" })).toMatchObject({ HOST: "0.0.0.0", TRUST_PROXY: false });
  });

  it("refuses proxies counted in hops when the port is open to other machines, and says to list their addresses", () => {
    for (const TRUST_PROXY of ["1", "true", "2"]) {
      expect(problems({ TRUST_PROXY, HOST: "0.0.0.0" })).toContain("list the proxies' addresses instead");
      expect(problems({ TRUST_PROXY, HOST: "10.0.0.9" })).toContain("TRUST_PROXY: a number of hops");
    }
    expect(problems({ TRUST_PROXY: "1", HOST: "127.0.0.1" })).toBeNull();
    expect(problems({ TRUST_PROXY: "1", HOST: "::1" })).toBeNull();
    expect(problems({ TRUST_PROXY: "10.0.0.2", HOST: "0.0.0.0" })).toBeNull();
  });

  it("takes proxy addresses, ranges and Express's named ranges, and refuses anything else by name", () => {
    expect(parseEnv({ TRUST_PROXY: "loopback, uniquelocal, ::1, fd00::/8" }).TRUST_PROXY).toEqual(["loopback", "uniquelocal", "::1", "fd00::/8"]);
    expect(problems({ TRUST_PROXY: "10.0.0.1, nginx.internal, 10.0.0.0/33" })).toContain(
      'TRUST_PROXY: not a number of hops or a list of proxy addresses: "nginx.internal", "10.0.0.0/33"',
    );
  });

  it("refuses a shutdown time that is not a positive number of milliseconds", () => {
    expect(parseEnv({}).SHUTDOWN_TIMEOUT_MS).toBe(25_000);
    expect(problems({ SHUTDOWN_TIMEOUT_MS: "soon" })).toContain("SHUTDOWN_TIMEOUT_MS: must be a positive number of milliseconds");
    expect(problems({ SHUTDOWN_TIMEOUT_MS: "-5" })).toContain("SHUTDOWN_TIMEOUT_MS: must be a positive number of milliseconds");
  });

  it("takes a DKIM key written on one line, and refuses a key without its selector, or a selector without its key", () => {
    const key = "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----";
    expect(parseEnv({ DKIM_PRIVATE_KEY: key, DKIM_SELECTOR: "chillpb2026" }).DKIM_PRIVATE_KEY).toBe(
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
    );
    expect(problems({ DKIM_PRIVATE_KEY: key })).toContain("DKIM_SELECTOR: DKIM_SELECTOR is required with DKIM_PRIVATE_KEY: DKIM needs both");
    expect(problems({ DKIM_SELECTOR: "chillpb2026" })).toContain("DKIM_PRIVATE_KEY: DKIM_PRIVATE_KEY is required with DKIM_SELECTOR: DKIM needs both");
    expect(problems({ DKIM_PRIVATE_KEY: "not a key", DKIM_SELECTOR: "chillpb2026" })).toContain("DKIM_PRIVATE_KEY: DKIM_PRIVATE_KEY must be a PEM private key");
    expect(problems({ DKIM_PRIVATE_KEY: key, DKIM_SELECTOR: "two words" })).toContain("DKIM_SELECTOR: DKIM_SELECTOR is a DNS label, e.g. chillpb2026");
  });
});
