/**
 * The catalogue of requirements §3, the single source the seed writes into the
 * database. Prices are integer cents.
 */
export type CatalogueProduct = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  category: "bars" | "bites";
  flavor: string;
  image: string;
  imageAlt: string;
  imageWidth: number;
  imageHeight: number;
  inStock: boolean;
  position: number;
};

const image = (id: string) => ({
  image: `/images/products/${id}.svg`,
  imageWidth: 800,
  imageHeight: 600,
});

export const catalogue: CatalogueProduct[] = [
  {
    id: "bar-chocolate-pb",
    name: "Chocolate Crunch",
    description: "Creamy organic Greek yogurt swirled with roasted peanut butter, dipped in fair-trade dark chocolate and finished with crunchy peanuts.",
    priceCents: 600,
    category: "bars",
    flavor: "Chocolate PB",
    ...image("bar-chocolate-pb"),
    imageAlt: "A frozen peanut-butter yogurt bar fully dipped in dark chocolate with a peanut-butter drizzle and chopped peanuts",
    inStock: true,
    position: 1,
  },
  {
    id: "bar-strawberry-pb",
    name: "Strawberry Bliss",
    description: "Peanut-butter yogurt folded with sun-ripened organic strawberries and a touch of honey, like a frozen PB&J made clean.",
    priceCents: 600,
    category: "bars",
    flavor: "Strawberry PB",
    ...image("bar-strawberry-pb"),
    imageAlt: "A frozen yogurt bar half-dipped in chocolate with a pink strawberry drizzle and fresh strawberries on top",
    inStock: true,
    position: 2,
  },
  {
    id: "bar-banana-pb",
    name: "Banana Blast",
    description: "Ripe organic banana and peanut butter blended into tangy Greek yogurt with a pinch of sea salt, then dipped in chocolate.",
    priceCents: 600,
    category: "bars",
    flavor: "Banana PB",
    ...image("bar-banana-pb"),
    imageAlt: "A frozen yogurt bar half-dipped in chocolate with a golden banana drizzle and banana slices on top",
    inStock: true,
    position: 3,
  },
  {
    id: "bites-variety",
    name: "Chocolate Mini Bites",
    description: "Ten bite-size peanut-butter yogurt bites, each dipped in fair-trade chocolate. 2g protein per bite, 20g per carton.",
    priceCents: 1000,
    category: "bites",
    flavor: "Chocolate",
    ...image("bites-variety"),
    imageAlt: "A pile of round mini bites fully coated in dark chocolate with a peanut-butter drizzle, with peanuts around them",
    inStock: true,
    position: 4,
  },
  {
    id: "bites-strawberry",
    name: "Organic Strawberry Bites",
    description: "Ten strawberry peanut-butter yogurt bites half-dipped in chocolate. 2g protein per bite and a lunchbox favourite.",
    priceCents: 1000,
    category: "bites",
    flavor: "Strawberry",
    ...image("bites-strawberry"),
    imageAlt: "A pile of creamy mini bites half-dipped in chocolate with a pink drizzle, surrounded by strawberries",
    inStock: true,
    position: 5,
  },
  {
    id: "bites-banana",
    name: "Organic Banana Bites",
    description: "Ten banana peanut-butter yogurt bites half-dipped in chocolate. 2g protein per bite, 20g per carton of ten.",
    priceCents: 1000,
    category: "bites",
    flavor: "Banana",
    ...image("bites-banana"),
    imageAlt: "A pile of creamy mini bites half-dipped in chocolate with a golden drizzle, surrounded by banana slices",
    inStock: true,
    position: 6,
  },
];

/** Discount codes (requirements §9): WELCOME10 is 10% off for an email with no paid order yet. */
export const discountCodes = [
  {
    code: "WELCOME10",
    kind: "percent",
    terms: { basisPoints: 1000 },
    description: "10% off your first order",
    firstOrderOnly: true,
  },
];
