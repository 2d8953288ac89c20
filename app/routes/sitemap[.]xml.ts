import { productPath } from "~/lib/url";
import { listProducts } from "~/models/catalog.server";
import { publicOrigin } from "~/utils/origin.server";
import { answeringDatabaseFailures } from "~/utils/api.server";

const pages = ["/", "/shop", "/shop?category=bars", "/shop?category=bites", "/privacy", "/terms"];

/** Every public page, with one page per product in the catalogue as it stands in the database. */
export async function loader() {
  return answeringDatabaseFailures("The sitemap", async () => {
    const origin = publicOrigin();
    const products = await listProducts();
    const paths = [...pages, ...products.map((product) => productPath(product.id))];
    const urls = paths.map((page) => `  <url><loc>${origin}${page.replace(/&/g, "&amp;")}</loc></url>`).join("\n");
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
    return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
  });
}
