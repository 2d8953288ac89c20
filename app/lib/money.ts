/** Money is integer cents everywhere; this module is the only place it becomes text. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Whole-dollar amounts as the shop's copy states them: 5000 → "$50". */
export function formatWholeDollars(cents: number): string {
  return Number.isInteger(cents / 100) ? `$${cents / 100}` : formatCents(cents);
}
