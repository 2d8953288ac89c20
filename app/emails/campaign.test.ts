import { describe, expect, it } from "vitest";
import { campaignEmail, type CampaignForEmail } from "~/services/emails.server";

const campaign: CampaignForEmail = {
  subject: "Mango Tango is back",
  preheader: "Two new bars, and 15% off this weekend",
  body: "Hi friend,\n\nOur **summer bars** are here:\n- Mango Tango\n- Cocoa Crunch\n\nRead [the story](https://chillpb.example/blog/mango) or [don't](javascript:alert(1)).",
  products: [
    {
      id: "bar-mango",
      name: "Mango Tango Bar",
      priceCents: 450,
      imageUrl: "https://chillpb.example/images/mango.jpg",
      url: "https://chillpb.example/products/bar-mango",
    },
    { id: "bites-cocoa", name: "Cocoa & PB Bites", priceCents: 1800, imageUrl: null, url: "https://chillpb.example/products/bites-cocoa" },
  ],
  discountCode: "SUMMER15",
  shopUrl: "https://chillpb.example/shop",
};
const recipient = { email: "fan@example.com", unsubscribeUrl: "https://chillpb.example/unsubscribe?token=t0k&x=1" };
const footer = { postalAddress: "1234 Abbot Kinney Blvd, Venice, CA 90291" };

describe("a campaign's email", () => {
  it("goes to the subscriber under the campaign's subject, with their unsubscribe link", async () => {
    const email = await campaignEmail(campaign, recipient, footer);
    expect(email).toMatchObject({ kind: "campaign", to: recipient.email, subject: campaign.subject, unsubscribeUrl: recipient.unsubscribeUrl });
  });

  it("shows the body, the products as cards, the code and the footer in its HTML", async () => {
    const { html } = await campaignEmail(campaign, recipient, footer);
    expect(html).toContain(campaign.preheader);
    expect(html).toMatch(/<strong>summer bars<\/strong>/);
    expect(html).toMatch(/<li[^>]*>Mango Tango<\/li>/);
    expect(html).toContain('href="https://chillpb.example/blog/mango"');
    expect(html).toContain("[don&#x27;t](javascript:alert(1))");
    expect(html).not.toContain('href="javascript');
    expect(html).toMatch(/<img alt="Mango Tango Bar"[^>]* src="https:\/\/chillpb.example\/images\/mango.jpg"/);
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain("$4.50");
    expect(html).toContain("Cocoa &amp; PB Bites");
    expect(html).toContain("$18.00");
    // A link and the words inside it, before it closes.
    const linkTo = (url: string, words: string) => new RegExp(`href="${url.replace(/[.?/]/g, "\\$&")}"[^>]*>(?:(?!</a>)[\\s\\S])*${words}`);
    expect(html).toMatch(linkTo("https://chillpb.example/products/bar-mango", '<img alt="Mango Tango Bar"'));
    expect(html).toMatch(linkTo("https://chillpb.example/products/bar-mango", "Shop now"));
    expect(html).toMatch(linkTo("https://chillpb.example/products/bites-cocoa", "Shop now"));
    expect(html).toMatch(linkTo("https://chillpb.example/shop", "Use code SUMMER15"));
    // The code is said once, on its button: a reader finds one thing to copy.
    expect(html.match(/SUMMER15/g)).toHaveLength(1);
    expect(html).toContain(footer.postalAddress);
    expect(html).toMatch(/Don&#x27;t want these emails\?.*<a href="https:\/\/chillpb.example\/unsubscribe\?token=t0k&amp;x=1"[^>]*>Unsubscribe<\/a>/);
  });

  it("reads as plain text: links as their words and address, each product with its link, the code, the footer", async () => {
    const { text } = await campaignEmail(campaign, recipient, footer);
    expect(text).toBe(`Mango Tango is back

Hi friend,

Our summer bars are here:

- Mango Tango
- Cocoa Crunch

Read the story (https://chillpb.example/blog/mango) or [don't](javascript:alert(1)).

Mango Tango Bar, $4.50
Shop now: https://chillpb.example/products/bar-mango

Cocoa & PB Bites, $18.00
Shop now: https://chillpb.example/products/bites-cocoa

Use code SUMMER15 at checkout: https://chillpb.example/shop

Don't want these emails? Unsubscribe: https://chillpb.example/unsubscribe?token=t0k&x=1

Chill PB · 1234 Abbot Kinney Blvd, Venice, CA 90291`);
  });

  it("without a code or products, still leads to the shop", async () => {
    const { html, text } = await campaignEmail({ ...campaign, products: [], discountCode: null, preheader: null }, recipient, footer);
    expect(html).not.toContain("Shop now");
    expect(html).toMatch(/href="https:\/\/chillpb.example\/shop"[^>]*>(?:(?!<\/a>)[\s\S])*Visit the shop/);
    expect(text).toContain("Visit the shop: https://chillpb.example/shop");
  });
});
