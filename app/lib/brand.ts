/**
 * The shop's identity in one place. Every page, email and metadata tag reads
 * from here, so renaming the brand is a one-file change.
 */
export const brand = {
  name: "Chill PB",
  shortName: "chillpb",
  tagline: "Organic frozen peanut-butter yogurt bars & bites, made in Los Angeles.",
  contactEmail: "hello@chillpb.example",
  phone: "(310) 555-0142",
  city: "Los Angeles, CA",
  instagramUrl: "https://www.instagram.com/chillpb",
  instagramHandle: "@chillpb",
} as const;

/** Local-storage key of the cart mirror: the short name plus "cart" (requirements §9). */
export const CART_STORAGE_KEY = `${brand.shortName}cart`;
