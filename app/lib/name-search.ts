/**
 * A name as the search reads it: lower case, from its first letter on, so
 * that a name written after an emoji or a mark ("🍦Lopez", "(Maya)") is
 * found by its letters. Migration 028's SQL function name_key says the same,
 * and the name indexes are keyed on it.
 */
export const nameKey = (name: string) => name.replace(/^\P{L}+/u, "").toLowerCase();

/**
 * The operator's name search: a term's words each match the start of the
 * first or the last name ("maya", "Maya Lo"), in any case. An order matches
 * when every word is the start of one of its two names, read by nameKey.
 */
export function nameMatches(words: readonly string[], firstName: string, lastName: string): boolean {
  const first = nameKey(firstName);
  const last = nameKey(lastName);
  return words.every((word) => first.startsWith(word) || last.startsWith(word));
}

/** A first-name prefix and a last-name prefix ("" where the name is free). */
export type NamePrefixPair = { first: string; last: string };

/**
 * The fewest (first-name prefix, last-name prefix) pairs whose orders are
 * exactly the orders `words` (lower case) match, so that each pair can be
 * read as one range of an index keyed on both names (decision 076).
 *
 * The words an order's first name starts with are all starts of its longest
 * one, and likewise for the last name, so every match lies in the pair of
 * those two longest words, and every pair that holds each word as a start of
 * one of its two prefixes holds only matches. A pair inside a wider pair
 * (each prefix continues the wider one's) is left out. "olivia martinez":
 * (olivia, martinez) and (martinez, olivia); "mar": (mar, "") and ("", mar);
 * three words no two of which start alike: none (no order can match).
 */
export function namePrefixPairs(words: readonly string[]): NamePrefixPair[] {
  const candidates = ["", ...new Set(words)];
  const pairs = candidates.flatMap((first) =>
    candidates.filter((last) => words.every((word) => first.startsWith(word) || last.startsWith(word))).map((last) => ({ first, last })),
  );
  return pairs.filter((pair) => !pairs.some((wider) => wider !== pair && pair.first.startsWith(wider.first) && pair.last.startsWith(wider.last)));
}
