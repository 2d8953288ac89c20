#!/usr/bin/env node
// Draws the shop's product illustrations as small, crisp SVG files in
// public/images/. The artwork is ours: edit the palettes or shapes here and
// run `node scripts/draw-product-art.mjs` to redraw every image.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const WIDTH = 800;
const HEIGHT = 600;
const outDir = path.resolve("public/images/products");

const chocolate = { dark: "#3f2417", mid: "#5b3421", light: "#7a4a2f" };
const yogurt = { base: "#f8ecd9", swirl: "#dba566", shade: "#ecd3ae" };

/**
 * @typedef {{ bg: string, blob: string, drizzle: string, fruit: (x: number, y: number, s: number) => string }} Flavor
 *   a flavour's palette and the fruit drawn on it (at x, y, scaled by s)
 * @typedef {"chocolate" | "strawberry" | "banana"} FlavorName
 */

/** @type {Record<FlavorName, Flavor>} */
const flavors = {
  chocolate: {
    bg: "#f6e3cf",
    blob: "#eccaa6",
    drizzle: "#e2b06f",
    fruit: (x, y, s) => peanut(x, y, s),
  },
  strawberry: {
    bg: "#fde2e4",
    blob: "#f9c1c8",
    drizzle: "#f58ea4",
    fruit: (x, y, s) => strawberry(x, y, s),
  },
  banana: {
    bg: "#fff2c7",
    blob: "#fde38d",
    drizzle: "#f6d36b",
    fruit: (x, y, s) => bananaSlice(x, y, s),
  },
};

/** @param {Flavor} flavor @param {string} body @param {string} title */
function frame(flavor, body, title) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img">
<title>${title}</title>
<defs>
<filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="14"/></filter>
<linearGradient id="shine" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
</defs>
<rect width="${WIDTH}" height="${HEIGHT}" fill="${flavor.bg}"/>
<circle cx="400" cy="300" r="250" fill="${flavor.blob}"/>
<circle cx="640" cy="120" r="60" fill="${flavor.blob}" opacity=".6"/>
<circle cx="140" cy="500" r="44" fill="${flavor.blob}" opacity=".6"/>
${sparkles()}
${body}
</svg>
`;
}

function sparkles() {
  /** @type {[number, number, number][]} x, y, radius */
  const points = [
    [110, 110, 16],
    [690, 470, 14],
    [700, 230, 10],
    [190, 330, 9],
    [560, 70, 9],
  ];
  return points
    .map(
      ([x, y, r]) =>
        `<g stroke="#fff" stroke-width="4" stroke-linecap="round" opacity=".9"><path d="M${x - r} ${y}h${2 * r}M${x} ${y - r}v${2 * r}M${x - r * 0.7} ${y - r * 0.7}l${r * 1.4} ${r * 1.4}M${x - r * 0.7} ${y + r * 0.7}l${r * 1.4} ${-r * 1.4}"/></g>`,
    )
    .join("\n");
}

/** @param {number} x @param {number} y @param {number} s */
function peanut(x, y, s) {
  return `<g transform="translate(${x} ${y}) scale(${s})"><path d="M-14 -8c0-10 12-14 18-6 6-6 20-2 18 8 6 8-2 20-12 16-6 8-22 4-20-6-10-2-10-12-4-12z" fill="#c98c4e"/><path d="M-6 -4c4 2 10 2 14 0M-4 6c4 2 10 2 14 0" stroke="#a86c33" stroke-width="2" fill="none" stroke-linecap="round"/></g>`;
}

/** @param {number} x @param {number} y @param {number} s */
function strawberry(x, y, s) {
  const seeds = [
    [-6, -2],
    [6, -2],
    [0, 6],
    [-8, 10],
    [8, 10],
    [0, -10],
  ]
    .map(([sx, sy]) => `<ellipse cx="${sx}" cy="${sy}" rx="1.6" ry="2.4" fill="#ffe7a3"/>`)
    .join("");
  return `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0 26C-16 16-24 0-18-12c5-9 14-10 18-6 4-4 13-3 18 6 6 12-2 28-18 38z" fill="#e8374f"/><path d="M-12 -14c4-6 8-8 12-4 4-4 8-2 12 4-6 0-8-2-12 2-4-4-6-2-12-2z" fill="#3f9b4a"/>${seeds}</g>`;
}

/** @param {number} x @param {number} y @param {number} s */
function bananaSlice(x, y, s) {
  return `<g transform="translate(${x} ${y}) scale(${s})"><circle r="20" fill="#f2d27a"/><circle r="16" fill="#fdf0c0"/><g fill="#b8893a"><circle cx="0" cy="-6" r="1.8"/><circle cx="5" cy="3" r="1.8"/><circle cx="-5" cy="3" r="1.8"/></g></g>`;
}

/** @param {number} x1 @param {number} x2 @param {number} y @param {number} amplitude @param {string} color @param {number} [width] */
function drizzle(x1, x2, y, amplitude, color, width = 7) {
  let d = `M${x1} ${y}`;
  const step = 38;
  let up = true;
  for (let x = x1 + step; x <= x2; x += step) {
    d += ` Q${x - step / 2} ${y + (up ? -amplitude : amplitude)} ${x} ${y}`;
    up = !up;
  }
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
}

/** @param {FlavorName} flavorName */
function bar(flavorName) {
  const flavor = flavors[flavorName];
  const fullyDipped = flavorName === "chocolate";
  const dipEdge = fullyDipped ? "M150 180h500v260H150z" : "M150 180h500v120c-40 18-70-10-110 6s-70 22-110 4-70-16-110 0-60 10-70 2z";
  /** @type {[number, number, number][]} x, y, scale */
  const fruits = [
    [250, 230, 1.1],
    [330, 214, 0.9],
    [430, 232, 1.2],
    [520, 212, 0.95],
    [590, 240, 0.85],
  ];
  const toppings = fruits.map(([x, y, s]) => flavor.fruit(x, y, s)).join("");
  const nibs = [
    [290, 250],
    [380, 240],
    [470, 256],
    [560, 230],
    [220, 262],
  ]
    .map(([x, y]) => `<rect x="${x}" y="${y}" width="9" height="6" rx="2" fill="#c98c4e" transform="rotate(25 ${x} ${y})"/>`)
    .join("");
  return `<ellipse cx="400" cy="468" rx="250" ry="30" fill="#000" opacity=".14" filter="url(#soft)"/>
<g transform="rotate(-7 400 320)">
<clipPath id="bar"><rect x="160" y="190" width="480" height="240" rx="46"/></clipPath>
<rect x="160" y="190" width="480" height="240" rx="46" fill="${yogurt.base}"/>
<g clip-path="url(#bar)">
<path d="M170 380c60-30 110 20 170-6s110-40 170-6 90 20 130 4" stroke="${yogurt.swirl}" stroke-width="14" fill="none" stroke-linecap="round" opacity=".8"/>
<path d="M170 410c70-18 120 12 180-4s120-30 180 0" stroke="${yogurt.shade}" stroke-width="10" fill="none" stroke-linecap="round"/>
<path d="${dipEdge}" fill="${chocolate.mid}"/>
<path d="M150 180h500v40H150z" fill="${chocolate.light}" opacity=".55"/>
${drizzle(190, 610, 280, 26, flavor.drizzle)}
${drizzle(210, 600, 330, 20, flavor.drizzle, 5)}
<rect x="160" y="190" width="480" height="120" fill="url(#shine)"/>
</g>
${nibs}
${toppings}
</g>`;
}

/** @param {number} x @param {number} y @param {number} r @param {Flavor} flavor @param {boolean} fullyDipped */
function bite(x, y, r, flavor, fullyDipped) {
  const id = `b${x}${y}`;
  const dip = fullyDipped
    ? `<circle cx="${x}" cy="${y}" r="${r}" fill="${chocolate.mid}"/>`
    : `<path d="M${x - r} ${y - r * 0.1}c${r * 0.4} ${r * 0.25} ${r * 0.7} ${-r * 0.2} ${r} 0s${r * 0.6} ${r * 0.2} ${r} 0v${r * 1.2}h${-2 * r}z" fill="${chocolate.mid}"/>`;
  return `<g>
<clipPath id="${id}"><circle cx="${x}" cy="${y}" r="${r}"/></clipPath>
<circle cx="${x}" cy="${y}" r="${r}" fill="${yogurt.base}"/>
<g clip-path="url(#${id})">
<path d="M${x - r} ${y - r * 0.4}c${r * 0.5} ${-r * 0.3} ${r} ${r * 0.3} ${r * 2} 0" stroke="${yogurt.swirl}" stroke-width="${r * 0.16}" fill="none" opacity=".8"/>
${dip}
${drizzle(x - r, x + r, y - r * 0.05 + (fullyDipped ? -r * 0.3 : r * 0.35), r * 0.22, flavor.drizzle, r * 0.1)}
<ellipse cx="${x - r * 0.35}" cy="${y - r * 0.45}" rx="${r * 0.35}" ry="${r * 0.18}" fill="#fff" opacity=".35"/>
</g>
</g>`;
}

/** @param {FlavorName} flavorName */
function bites(flavorName) {
  const flavor = flavors[flavorName];
  const fullyDipped = flavorName === "chocolate";
  /** @type {[number, number, number][]} x, y, radius */
  const positions = [
    [300, 250, 70],
    [470, 240, 74],
    [390, 340, 80],
    [240, 370, 66],
    [550, 370, 68],
  ];
  const pile = positions.map(([x, y, r]) => bite(x, y, r, flavor, fullyDipped)).join("\n");
  /** @type {[number, number, number][]} x, y, scale */
  const fruits = [
    [180, 260, 1.3],
    [640, 270, 1.2],
    [620, 450, 1.1],
    [180, 460, 1.15],
  ];
  const garnish = fruits.map(([x, y, s]) => flavor.fruit(x, y, s)).join("");
  return `<ellipse cx="400" cy="470" rx="260" ry="30" fill="#000" opacity=".14" filter="url(#soft)"/>
${pile}
${garnish}`;
}

/** @type {[id: string, flavor: FlavorName, draw: (flavorName: FlavorName) => string, title: string][]} */
const products = [
  ["bar-chocolate-pb", "chocolate", bar, "Chocolate Crunch bar"],
  ["bar-strawberry-pb", "strawberry", bar, "Strawberry Bliss bar"],
  ["bar-banana-pb", "banana", bar, "Banana Blast bar"],
  ["bites-variety", "chocolate", bites, "Chocolate Mini Bites"],
  ["bites-strawberry", "strawberry", bites, "Organic Strawberry Bites"],
  ["bites-banana", "banana", bites, "Organic Banana Bites"],
];

mkdirSync(outDir, { recursive: true });
for (const [id, flavorName, draw, title] of products) {
  const svg = frame(flavors[flavorName], draw(flavorName), title)
    .split("\n")
    .map((line) => line.trim())
    .join("\n");
  writeFileSync(path.join(outDir, `${id}.svg`), svg);
}
console.log(`Drew ${products.length} images in ${path.relative(process.cwd(), outDir)}/`);
