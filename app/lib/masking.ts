/**
 * How customer data is shown to anyone but the fulfilment team (spec §6):
 * one rule, used by the admin functions and the unsubscribe page.
 */
export function maskEmail(email: string) {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  // A fixed run of asterisks: the length of the name is not shown either.
  return `${email[0]}***${email.slice(at)}`;
}

export const initial = (name: string) => (name.trim()[0]?.toUpperCase() ?? "?") + ".";
