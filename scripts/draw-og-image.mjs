#!/usr/bin/env node
// Renders the social-sharing picture (public/images/og-shop.png, 1200×630)
// from the product artwork with the system Chromium. Run it after redrawing
// the products: `node scripts/draw-og-image.mjs`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

/** A product's artwork as a data: URL. @param {string} id */
const art = (id) => `data:image/svg+xml;base64,${readFileSync(path.resolve(`public/images/products/${id}.svg`)).toString("base64")}`;
const font = readFileSync(path.resolve("fonts-src/fredoka-latin-wght.woff2")).toString("base64");

const html = `<!doctype html><html><head><style>
@font-face { font-family: Fredoka; src: url(data:font/woff2;base64,${font}); font-weight: 300 700; }
body { margin: 0; width: 1200px; height: 630px; background: #fff8ef; font-family: Fredoka, sans-serif; overflow: hidden; position: relative; }
h1 { position: absolute; left: 70px; top: 120px; width: 520px; margin: 0; font-size: 76px; line-height: 1.02; color: #3f2417; font-weight: 600; }
h1 span { color: #d92f4a; }
p { position: absolute; left: 72px; top: 420px; line-height: 1.4; margin: 0; font-size: 30px; color: #6b5143; }
.logo { position: absolute; left: 70px; top: 50px; font-size: 40px; font-weight: 700; color: #3f2417; }
.logo span { color: #d92f4a; }
img { position: absolute; border-radius: 36px; box-shadow: 0 20px 50px rgb(63 36 23 / 20%); }
.a { width: 520px; right: 50px; top: 60px; transform: rotate(3deg); }
.b { width: 280px; right: 440px; top: 350px; transform: rotate(-6deg); border: 8px solid #fff8ef; }
</style></head><body>
<div class="logo">Chill<span>PB</span></div>
<h1>Frozen PB yogurt <span>bars &amp; bites</span></h1>
<p>10g protein · 100% organic<br>Delivered frozen in LA</p>
<img class="a" src="${art("bar-strawberry-pb")}" alt="">
<img class="b" src="${art("bites-variety")}" alt="">
</body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.waitForTimeout(200);
await page.screenshot({ path: "public/images/og-shop.png" });
await browser.close();
console.log("Drew public/images/og-shop.png");
