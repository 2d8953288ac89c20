/**
 * Money is integer cents everywhere; this module is the only place it becomes
 * text, and the only place it meets dollars (the functions' JSON carries
 * dollars, as requirements §3 has it).
 */
/** Cents as the shop shows money: 123456 → "$1,234.56", -500 → "-$5.00". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
}

/** 2961 → "2,961": written out rather than toLocaleString, which follows the server's and the browser's locale. */
const groupThousands = (whole: number) => String(whole).replace(/\B(?=(\d{3})+$)/g, ",");

/** Whole-dollar amounts as the shop's copy states them: 5000 → "$50". */
export function formatWholeDollars(cents: number): string {
  return Number.isInteger(cents / 100) ? `$${groupThousands(cents / 100)}` : formatCents(cents);
}

/** What a range costs: one figure while its products agree, else the lowest, "from" it; null for no products. */
export function rangePrice(priceCents: readonly number[]): { cents: number; from: boolean } | null {
  if (priceCents.length === 0) return null;
  const cents = Math.min(...priceCents);
  return { cents, from: priceCents.some((price) => price !== cents) };
}

/** Cents as the dollars a function answers with: 1250 → 12.5. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Dollars a client sent, as integer cents, rounded to the nearest cent (half up): 12.345 → 1235. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}
