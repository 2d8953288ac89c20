import { z } from "zod";

/**
 * The environment, parsed once at start. A value the shop cannot run without
 * in production stops the server with a message that names it.
 */
const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.string().min(1).default("file:./var/shop.db"),
    SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters").optional(),
    PUBLIC_URL: z.string().url().optional(),
    /** Set by `npm start` when NODE_ENV is not production: a shop that runs on a fresh clone. */
    DEMO: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET && !env.DEMO) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SESSION_SECRET"],
        message: "SESSION_SECRET is required in production (a long random string)",
      });
    }
  });

export type Env = z.infer<typeof schema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
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
