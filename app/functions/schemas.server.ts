import { z } from "zod";

/**
 * A body read by one of two schemas, chosen by what the client sent
 * (refund-order's `preview: true` asks a question, without it the refund is
 * made): each schema's own messages, and its callers typed with both inputs.
 */
export function eitherBody<First extends z.ZodTypeAny, Second extends z.ZodTypeAny>(
  isFirst: (raw: Record<string, unknown>) => boolean,
  first: First,
  second: Second,
) {
  return z
    .custom<z.input<First> | z.input<Second>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "must be an object")
    .transform((raw: Record<string, unknown>, context): z.output<First> | z.output<Second> => {
      const parsed = (isFirst(raw) ? first : second).safeParse(raw);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) context.addIssue(issue);
      return z.NEVER;
    });
}
