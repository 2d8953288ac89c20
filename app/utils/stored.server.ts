import type { z } from "zod";

/**
 * A value read back from the shop's own storage (a JSON column, a stored
 * kind), as `schema` says it must be. Anything else is an error naming what
 * was read and why it is not that: a bug, a hand edit or a newer instance's
 * write, which the person on call must see, never a silent default.
 */
export function parseStored<Schema extends z.ZodTypeAny>(what: string, schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(the value)"}: ${issue.message}`).join("; ");
  throw new Error(`Stored ${what} cannot be read by this version of the shop (${issues})`);
}
