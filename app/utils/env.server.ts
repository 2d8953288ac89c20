import { isIP } from "node:net";
import { z } from "zod";
import { brand } from "~/lib/brand";

/**
 * The environment, parsed once at start. A value the shop cannot run without
 * in production stops the server with a message that names it.
 */
const flag = z
  .enum(["true", "false"])
  .optional()
  .transform((value) => value === "true");

/** An address or CIDR range, or one of the names Express's `trust proxy` knows. */
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
function isProxyEntry(entry: string) {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** A comma-separated list of addresses, CIDR ranges and loopback/linklocal/uniquelocal, or the zod issue naming the entries that are not. */
function addressList(text: string, ctx: z.RefinementCtx, expected: string): string[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isProxyEntry(entry));
  if (invalid.length === 0) return entries;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not ${expected}: ${invalid.map((entry) => JSON.stringify(entry)).join(", ")}` });
  return z.NEVER;
}

/**
 * TRUST_PROXY as Express's "trust proxy": unset or "false" trusts nobody (the
 * socket's address); "true" is one hop (the load balancer); a number is that
 * many hops; anything else is a comma-separated list of proxy addresses, CIDR
 * ranges or the names loopback, linklocal, uniquelocal. Never "trust every
 * hop", which lets a client pick its address.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = (value ?? "").trim();
    if (text === "" || text === "false" || text === "0") return false;
    if (text === "true") return 1;
    if (/^\d+$/.test(text)) return Number(text);
    return addressList(text, ctx, "a number of hops or a list of proxy addresses");
  });

/**
 * METRICS_ALLOW: who may read /metrics (decision 049), as the client address
 * the shop resolves (TRUST_PROXY). A comma-separated list of addresses, CIDR
 * ranges and the names loopback, linklocal, uniquelocal; unset or empty is
 * "loopback"; "none" lets nobody in.
 */
const metricsAllow = z
  .string()
  .optional()
  .transform((value, ctx): string[] => {
    const text = (value ?? "").trim();
    if (text === "") return ["loopback"];
    if (text === "none") return [];
    return addressList(text, ctx, '"none" or a list of addresses, CIDR ranges, loopback, linklocal, uniquelocal');
  });

/** Whether HOST names the loopback only (127.0.0.0/8, ::1, localhost): nothing from another machine reaches the port. */
function isLoopbackHost(host: string) {
  return host === "localhost" || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Proxy entries that are all on this machine: a proxy there reaches the shop on the loopback. */
const onThisMachine = (entries: string[]) => entries.every((entry) => entry === "loopback" || isLoopbackHost(entry.split("/")[0] ?? ""));

/** Where the shop listens when HOST is unset. */
function defaultHost(env: { NODE_ENV: string; DEMO: boolean; TRUST_PROXY: false | number | string[] }) {
  if (env.DEMO || env.NODE_ENV !== "production") return "127.0.0.1";
  if (env.TRUST_PROXY === false) return "0.0.0.0";
  if (Array.isArray(env.TRUST_PROXY) && !onThisMachine(env.TRUST_PROXY)) return "0.0.0.0";
  return "127.0.0.1";
}

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().positive().default(3000),
    /**
     * The address to listen on. Unset: the loopback for the demo and
     * development (nothing on the local network reaches them) and behind a
     * proxy counted in hops; every interface in production without a proxy,
     * or behind proxies listed by address (decisions 045, 080).
     */
    HOST: z.string().min(1).optional(),
    TRUST_PROXY: trustProxy,
    METRICS_ALLOW: metricsAllow,
    /** Where errors are reported (decision 055): a Sentry DSN; unset, nothing is reported. */
    SENTRY_DSN: z.string().url("SENTRY_DSN must be the DSN URL Sentry shows for the project").optional(),
    /** Reported with each error; defaults to production or development by NODE_ENV. */
    SENTRY_ENVIRONMENT: z.string().max(64).optional(),
    /** The release's git commit, when the release folder has no .git to ask (decision 050). */
    GIT_COMMIT: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/i, "must be a git commit hash (7 to 40 hex digits)")
      .optional(),
    /** How long SIGTERM waits for requests and an email in flight before the process exits anyway (decision 031). */
    SHUTDOWN_TIMEOUT_MS: z.coerce
      .number({ invalid_type_error: "must be a positive number of milliseconds" })
      .int("must be a positive number of milliseconds")
      .positive("must be a positive number of milliseconds")
      .default(25_000),
    /** The PostgreSQL server; server.mjs sets it to the embedded database's when it is unset (decision 035). */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
    SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters").optional(),
    PUBLIC_URL: z.string().url().optional(),
    /** Set by `npm start` when NODE_ENV is not production: a shop that runs on a fresh clone. */
    DEMO: flag,
    /** Start the MSW stand-ins for Stripe and the geocoder in this process. */
    MOCKS: z.enum(["true", "false"]).optional(),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Another Stripe-compatible server, e.g. http://localhost:12111 for stripe-mock. */
    STRIPE_API_URL: z.string().url().optional(),
    STRIPE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    GEOCODER_URL: z.string().url().default("https://nominatim.openstreetmap.org/search"),
    GEOCODER_USER_AGENT: z
      .string()
      .min(1)
      .default(`${brand.name.replaceAll(" ", "")}-Shop/1.0 (${brand.contactEmail})`),
    GEOCODER_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
    /** The kitchen: "lat,lon". */
    DELIVERY_ORIGIN: z
      .string()
      .regex(/^-?\d+(\.\d+)?,\s*-?\d+(\.\d+)?$/, 'DELIVERY_ORIGIN must look like "34.0443,-118.4509"')
      .default("34.0443,-118.4509"),
    TEST_CHECKOUT_EMAIL: z.string().email().optional(),
    /** The mail server; required in production (without it the demo writes .eml files to var/mail/). */
    SMTP_URL: z
      .string()
      .url()
      .refine((url) => /^smtps?:\/\//.test(url), "SMTP_URL must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default(`${brand.name} <${brand.contactEmail}>`),
    /**
     * DKIM (decision 101): the private key (PEM; "\n" for its line breaks is read as
     * them) and the selector its public key is published under, at
     * <selector>._domainkey.<MAIL_FROM's domain>. With both, every email is signed.
     */
    DKIM_PRIVATE_KEY: z
      .string()
      .transform((key) => key.replace(/\\n/g, "\n").trim())
      .refine((key) => /^-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----$/.test(key), "DKIM_PRIVATE_KEY must be a PEM private key")
      .optional(),
    DKIM_SELECTOR: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*$/i, "DKIM_SELECTOR is a DNS label, e.g. chillpb2026")
      .optional(),
    FULFILMENT_EMAIL: z.string().email().default("kitchen@chillpb.example"),
    /** Where partnership inquiries go. */
    TEAM_EMAIL: z.string().email().default(brand.contactEmail),
    /** How often the outbox worker looks for due emails; 0 turns the worker off in this process. */
    OUTBOX_POLL_MS: z.coerce.number().int().min(0).default(1_000),
    /** Emails this instance's worker sends at once (and SMTP connections it keeps): the mail server's pace, not the shop's. */
    OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
    /** How often this instance looks for a due background job (the orphan sweep, …); 0 runs none in this process. */
    JOBS_TICK_MS: z.coerce.number().int().min(0).default(5_000),
    /**
     * How often this instance asks Stripe again about refunds whose answer never came (decision 042);
     * 0 turns the checker off in this process.
     */
    REFUND_CHECK_MS: z.coerce.number().int().min(0).default(30_000),
    /** Retention (decision 062): an unpaid checkout's personal data is erased this many days after it was given up. */
    RETENTION_ABANDONED_DAYS: z.coerce.number().int().min(1).default(30),
    /** Retention: an email's body (text and HTML) is erased this many days after it was sent. */
    RETENTION_EMAIL_BODY_DAYS: z.coerce.number().int().min(1).default(90),
    /** Retention: a cached geocoder answer (an address and where it is) is deleted this many days after it was asked. */
    RETENTION_GEOCODER_DAYS: z.coerce.number().int().min(1).default(90),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
    /** The least severe log lines written: fatal, error, warn, info (the default), debug, trace or silent. */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Write the JSON log lines to this file instead of stdout. */
    LOG_FILE: z.string().min(1).optional(),
  })
  .transform((env) => ({
    ...env,
    HOST: env.HOST ?? defaultHost(env),
    // Without a Stripe key the demo runs against the stand-ins, never real money.
    MOCKS: env.MOCKS ? env.MOCKS === "true" : env.DEMO && !env.STRIPE_SECRET_KEY,
  }))
  .superRefine((env, ctx) => {
    // One without the other signs nothing: say so at start rather than send unsigned mail believed signed.
    if (Boolean(env.DKIM_PRIVATE_KEY) !== Boolean(env.DKIM_SELECTOR)) {
      const missing = env.DKIM_PRIVATE_KEY ? "DKIM_SELECTOR" : "DKIM_PRIVATE_KEY";
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [missing],
        message: `${missing} is required with ${missing === "DKIM_SELECTOR" ? "DKIM_PRIVATE_KEY" : "DKIM_SELECTOR"}: DKIM needs both`,
      });
    }
    // A proxy counted in hops is trusted for whatever its X-Forwarded-For says; with the port open to others, anyone
    // who reaches it directly writes that header and picks the address the rate limits count (decision 080).
    if (typeof env.TRUST_PROXY === "number" && !isLoopbackHost(env.HOST)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["TRUST_PROXY"],
        message:
          `a number of hops (${env.TRUST_PROXY}) is only safe when the shop listens on the loopback, and HOST is ${env.HOST}: ` +
          "list the proxies' addresses instead (TRUST_PROXY=10.0.0.5,10.0.0.6, or a range such as 10.0.0.0/24), or set HOST=127.0.0.1",
      });
    }
    if (env.NODE_ENV !== "production" || env.DEMO) return;
    if (env.MOCKS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["MOCKS"],
        message: "MOCKS=true is for the demo and tests only: it takes no real payments and its webhook secret is public",
      });
    }
    const required = ["SESSION_SECRET", "PUBLIC_URL"] as const;
    const stripe = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const;
    for (const name of env.MOCKS ? required : [...required, ...stripe]) {
      if (!env[name]) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: `${name} is required in production` });
      }
    }
    // Without it the mailer writes .eml files on this machine and no customer gets an email (decision 030).
    if (!env.SMTP_URL) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SMTP_URL"],
        message: "SMTP_URL is required in production: without a mail server every email would be written to var/mail/ on this machine and never sent",
      });
    }
  });

export type Env = z.infer<typeof schema>;

/** Parses `source` (the process's environment unless given); throws an error naming every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join("\n")}`);
  }
  return result.data;
}

export const env = parseEnv();

/** Signs the cart cookie (and later the session cookies). Only the demo falls back to a fixed value. */
export const sessionSecret = env.SESSION_SECRET ?? "chillpb-development-secret-not-for-production";

/** Cookies are Secure whenever the shop is served over https (docs/architecture.md §7). */
export const secureCookies = env.PUBLIC_URL?.startsWith("https://") ?? false;
