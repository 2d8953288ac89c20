import { Text } from "@react-email/components";
import { brand } from "~/lib/brand";
import { Block, Paragraph } from "~/emails/format.server";
import { EmailLayout, type EmailFooter } from "~/emails/layout.server";
import { colors } from "~/emails/theme";

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
