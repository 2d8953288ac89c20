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

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().positive().default(3000),
    DATABASE_URL: z.string().min(1).default("file:./var/shop.db"),
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
    GEOCODER_USER_AGENT: z.string().min(1).default(`${brand.name.replaceAll(" ", "")}-Shop/1.0 (${brand.contactEmail})`),
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
    FULFILMENT_EMAIL: z.string().email().default("kitchen@chillpb.example"),
    /** Where partnership inquiries go. */
    TEAM_EMAIL: z.string().email().default(brand.contactEmail),
    /** How often the outbox worker looks for due emails; 0 turns the worker off in this process. */
    OUTBOX_POLL_MS: z.coerce.number().int().min(0).default(1_000),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  })
  .transform((env) => ({
    ...env,
    // Without a Stripe key the demo runs against the stand-ins, never real money.
    MOCKS: env.MOCKS ? env.MOCKS === "true" : env.DEMO && !env.STRIPE_SECRET_KEY,
  }))
  .superRefine((env, ctx) => {
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

/** Cookies are Secure whenever the shop is served over https (DESIGN.md §7). */
export const secureCookies = env.PUBLIC_URL?.startsWith("https://") ?? false;
