/**
 * How customer data is shown to anyone but the fulfilment team (requirements §6):
 * one rule, used by the admin functions and the unsubscribe page.
 */
export function maskEmail(email: string) {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  // A fixed run of asterisks: the length of the name is not shown either.
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * A name's first character as a person sees it (a grapheme: "🍦Zoe" gives "🍦",
 * never half of its surrogate pair), then a full stop.
 */
export function initial(name: string) {
  const first = new Intl.Segmenter("en", { granularity: "grapheme" }).segment(name.trim())[Symbol.iterator]().next().value?.segment;
  return (first?.toUpperCase() ?? "?") + ".";
}
