import { Button, Column, Img, Link, Row, Section, Text } from "@react-email/components";
import { Fragment } from "react";
import { brand } from "~/lib/brand";
import { formatCents } from "~/lib/money";
import { Block, Paragraph, Strong, useEmailFormat } from "~/emails/format.server";
import { EmailLayout, type EmailFooter } from "~/emails/layout.server";
import { parseMarkdown, type Inline } from "~/emails/markdown";
import { button, colors, link, paragraph } from "~/emails/theme";

/** A discount code, big enough to read off a phone and copy. */
function CodeBadge({ code }: { code: string }) {
  return (
    <Text style={{ margin: "24px 0", textAlign: "center" }}>
      <span
        style={{
          display: "inline-block",
          background: colors.yellow,
          color: colors.chocolate,
          fontSize: "22px",
          lineHeight: "28px",
          fontWeight: 700,
          letterSpacing: "2px",
          padding: "12px 22px",
          borderRadius: "10px",
        }}
      >
        {code}
      </span>
    </Text>
  );
}

/** The newsletter's welcome, with the first order's code. */
export function Welcome({ footer }: { footer: EmailFooter & { unsubscribeUrl: string } }) {
  return (
    <EmailLayout title={`Welcome to the ${brand.name} family!`} footer={footer}>
      <Block text={`Welcome to the ${brand.name} family!`} />
      <Paragraph>{"Thanks for joining. You'll be the first to hear about new flavors, special\noffers and exclusive updates."}</Paragraph>
      <Block text="Here's 10% off your first order: use code WELCOME10 at checkout.">
        <CodeBadge code="WELCOME10" />
        <Paragraph>
          Use it at checkout for <strong>10% off your first order</strong>.
        </Paragraph>
      </Block>
      <Block text={`Stay chill,\nThe ${brand.name} team`} />
    </EmailLayout>
  );
}

/** A link's words in the text part: "words (address)", or the address alone when the words are it. */
function linkText(label: string, href: string) {
  const address = href.replace(/^mailto:/, "");
  return label === href || label === address ? address : `${label} (${address})`;
}

const plainWords = (inline: Inline[]): string => inline.map((part) => (part.type === "text" ? part.text : plainWords(part.children))).join("");

/** Words and marks of a campaign's body in either part. */
function InlineWords({ inline }: { inline: Inline[] }) {
  const format = useEmailFormat();
  return inline.map((part, index) => {
    if (part.type === "text") return <Fragment key={index}>{part.text}</Fragment>;
    if (part.type === "bold")
      return (
        <Strong key={index}>
          <InlineWords inline={part.children} />
        </Strong>
      );
    if (format === "text") return <Fragment key={index}>{linkText(plainWords(part.children), part.href)}</Fragment>;
    return (
      <Link key={index} href={part.href} style={link}>
        <InlineWords inline={part.children} />
      </Link>
    );
  });
}

/** A campaign's body, from its Markdown (app/emails/markdown.ts). */
export function MarkdownBody({ source }: { source: string }) {
  const format = useEmailFormat();
  return parseMarkdown(source).map((block, index) => {
    if (block.type === "paragraph")
      return (
        <Paragraph key={index}>
          <InlineWords inline={block.children} />
        </Paragraph>
      );
    if (format === "text")
      return (
        <Fragment key={index}>
          {block.items.map((item, itemIndex) => (
            <Fragment key={itemIndex}>
              {itemIndex > 0 ? "\n" : null}
              {"- "}
              <InlineWords inline={item} />
            </Fragment>
          ))}
          {"\n\n"}
        </Fragment>
      );
    return (
      <ul key={index} style={{ ...paragraph, paddingLeft: "22px" }}>
        {block.items.map((item, itemIndex) => (
          <li key={itemIndex} style={{ margin: "0 0 6px" }}>
            <InlineWords inline={item} />
          </li>
        ))}
      </ul>
    );
  });
}

export type CampaignProduct = { id: string; name: string; priceCents: number; imageUrl: string | null; url: string };

function ProductCard({ product }: { product: CampaignProduct }) {
  return (
    <Section style={{ background: colors.cream, borderRadius: "14px", overflow: "hidden" }}>
      {product.imageUrl ? (
        <Link href={product.url}>
          <Img src={product.imageUrl} alt={product.name} width="100%" style={{ width: "100%", height: "auto", borderRadius: "14px 14px 0 0" }} />
        </Link>
      ) : null}
      <Section style={{ padding: "12px 14px 16px" }}>
        <Text style={{ margin: "0 0 2px", fontSize: "16px", lineHeight: "22px", fontWeight: 700, color: colors.chocolate }}>{product.name}</Text>
        <Text style={{ margin: "0 0 12px", fontSize: "15px", lineHeight: "20px", color: colors.muted }}>{formatCents(product.priceCents)}</Text>
        <Button href={product.url} style={{ ...button, fontSize: "14px", padding: "9px 16px" }}>
          Shop now
        </Button>
      </Section>
    </Section>
  );
}

const pairs = <T,>(list: T[]) => Array.from({ length: Math.ceil(list.length / 2) }, (_, index) => list.slice(2 * index, 2 * index + 2));

/** The campaign's products, two to a row (a last one alone in the middle). */
function ProductGrid({ products }: { products: CampaignProduct[] }) {
  const text = products.map((product) => `${product.name}, ${formatCents(product.priceCents)}\nShop now: ${product.url}`).join("\n\n");
  return (
    <Block text={text}>
      <Section style={{ margin: "8px 0 8px" }}>
        {pairs(products).map((pair) => (
          <Row key={pair[0]!.id} style={{ tableLayout: "fixed" }}>
            {pair.length === 2 ? (
              pair.map((product, index) => (
                <Column key={product.id} width="50%" valign="top" style={{ padding: index === 0 ? "0 6px 12px 0" : "0 0 12px 6px" }}>
                  <ProductCard product={product} />
                </Column>
              ))
            ) : (
              <>
                <Column width="25%" />
                <Column width="50%" valign="top" style={{ padding: "0 0 12px" }}>
                  <ProductCard product={pair[0]!} />
                </Column>
                <Column width="25%" />
              </>
            )}
          </Row>
        ))}
      </Section>
    </Block>
  );
}

/**
 * The way to the shop: with the campaign's code, a code-yellow button that
 * names it (the one place the HTML says it), to be entered at checkout.
 */
function ShopButton({ shopUrl, discountCode }: { shopUrl: string; discountCode: string | null }) {
  const words = discountCode ? `Use code ${discountCode}` : "Visit the shop";
  return (
    <Block text={discountCode ? `${words} at checkout: ${shopUrl}` : `${words}: ${shopUrl}`}>
      <Section style={{ margin: "16px 0 8px", padding: "20px 16px", background: colors.cream, borderRadius: "14px" }}>
        <Text style={{ margin: "0", textAlign: "center" }}>
          <Button
            href={shopUrl}
            style={
              discountCode
                ? { ...button, background: colors.yellow, color: colors.chocolate, fontSize: "18px", letterSpacing: "1px", borderRadius: "10px" }
                : button
            }
          >
            {words}
          </Button>
        </Text>
        {discountCode ? (
          <Text style={{ margin: "10px 0 0", textAlign: "center", fontSize: "14px", lineHeight: "20px", color: colors.muted }}>Enter it at checkout.</Text>
        ) : null}
      </Section>
    </Block>
  );
}

/** An email to the list, written by the owner. */
export function Campaign({
  title,
  preheader,
  body,
  products,
  discountCode,
  shopUrl,
  footer,
}: {
  title: string;
  preheader: string | null;
  body: string;
  products: CampaignProduct[];
  discountCode: string | null;
  shopUrl: string;
  footer: EmailFooter & { unsubscribeUrl: string; postalAddress: string };
}) {
  return (
    <EmailLayout title={title} preheader={preheader} footer={footer}>
      <Block text={title} />
      <MarkdownBody source={body} />
      {products.length > 0 ? <ProductGrid products={products} /> : null}
      <ShopButton shopUrl={shopUrl} discountCode={discountCode} />
    </EmailLayout>
  );
}
