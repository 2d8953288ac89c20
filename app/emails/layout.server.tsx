import { Body, Container, Head, Heading, Html, Link, Preview, Section, Text } from "@react-email/components";
import { Fragment, type ReactNode } from "react";
import { brand } from "~/lib/brand";
import { Block, useEmailFormat } from "~/emails/format.server";
import { colors, fontFamily } from "~/emails/theme";

/** What the footer of every email says beyond the brand: where the shop is, for the law's sake in anything sent to the list. */
export type EmailFooter = {
  /** The shop's postal address (the owner's setting): shown when set. */
  postalAddress?: string | null;
  /** For emails sent to the list (the welcome, campaigns): the one-click unsubscribe link. */
  unsubscribeUrl?: string;
};

const footerText = { fontSize: "13px", lineHeight: "20px", color: colors.muted, margin: "0" };

/**
 * Every email's frame: the brand's bar, the title, the body and the footer
 * (the brand, its city and address, and the way off the list). In the plain
 * text part only the body and the footer's unsubscribe link and postal
 * address are written: the text emails have no header.
 */
export function EmailLayout({
  title,
  preheader = null,
  footer = {},
  children,
}: {
  title: string;
  /** The line an inbox shows after the subject. */
  preheader?: string | null;
  footer?: EmailFooter;
  children: ReactNode;
}) {
  const { postalAddress, unsubscribeUrl } = footer;
  if (useEmailFormat() === "text") {
    return (
      <>
        {children}
        {unsubscribeUrl ? <Block text={`Don't want these emails? Unsubscribe: ${unsubscribeUrl}`} /> : null}
        {postalAddress ? <Block text={`${brand.name} · ${postalAddress}`} /> : null}
      </>
    );
  }
  return (
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      {preheader ? <Preview>{preheader}</Preview> : null}
      <Body style={{ margin: "0", padding: "24px 12px", background: colors.cream, fontFamily, color: colors.ink }}>
        <Container style={{ maxWidth: "560px", background: colors.white, borderRadius: "16px", overflow: "hidden" }}>
          <Section style={{ background: colors.chocolate, padding: "20px 28px" }}>
            <Text style={{ margin: "0", fontSize: "22px", lineHeight: "28px", fontWeight: 700, color: colors.cream }}>
              Chill<span style={{ color: colors.yellow }}>PB</span>
            </Text>
          </Section>
          <Section style={{ padding: "28px" }}>
            <Heading as="h1" style={{ margin: "0 0 16px", fontSize: "24px", lineHeight: "30px", color: colors.chocolate }}>
              {title}
            </Heading>
            {children}
          </Section>
          <Section style={{ background: colors.sand, padding: "18px 28px" }}>
            {unsubscribeUrl ? (
              <Text style={{ ...footerText, margin: "0 0 8px" }}>
                Don&apos;t want these emails?{" "}
                <Link href={unsubscribeUrl} style={{ color: colors.cocoa, textDecoration: "underline" }}>
                  Unsubscribe
                </Link>
                .
              </Text>
            ) : null}
            <Text style={footerText}>
              {brand.name} · {brand.city} ·{" "}
              <Link href={`mailto:${brand.contactEmail}`} style={{ color: colors.cocoa }}>
                {brand.contactEmail}
              </Link>
            </Text>
            {postalAddress ? (
              <Text style={{ ...footerText, margin: "4px 0 0" }}>
                {/* The address as the owner wrote it, a line each. */}
                {postalAddress.split("\n").map((line, index) => (
                  <Fragment key={index}>
                    {index > 0 ? <br /> : null}
                    {line}
                  </Fragment>
                ))}
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
