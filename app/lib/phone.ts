/**
 * What a phone number is searched by: its last ten digits (a US number
 * without the country code), however it was typed — "(310) 555-0142",
 * "310.555.0142" and "+1 310 555 0142" are one key. Null for fewer than ten
 * digits: too short to name one customer.
 */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 10 ? digits.slice(-10) : null;
}
