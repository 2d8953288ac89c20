import { publicOrigin } from "~/utils/origin.server";

const pages = ["/", "/shop", "/shop?category=bars", "/shop?category=bites", "/privacy", "/terms"];

export function loader() {
  const origin = publicOrigin();
  const urls = pages.map((page) => `  <url><loc>${origin}${page.replace(/&/g, "&amp;")}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
