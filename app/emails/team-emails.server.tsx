import { Block, Paragraph, Strong, LineBreak } from "~/emails/format.server";
import { EmailLayout } from "~/emails/layout.server";
import { box } from "~/emails/theme";

/** To the team: a partnership inquiry from the website, the visitor's words as they wrote them. */
export function PartnershipInquiry({ name, email, business, message }: { name: string; email: string; business: string | null; message: string }) {
  return (
    <EmailLayout title="New partnership inquiry">
      <Block text="A new partnership inquiry from the website." />
      <Paragraph>
        <Strong>Name:</Strong> {name}
        <LineBreak />
        <Strong>Email:</Strong> {email}
        <LineBreak />
        <Strong>Business:</Strong> {business ?? "(not given)"}
      </Paragraph>
      <Paragraph style={{ ...box, whiteSpace: "pre-wrap" }}>{message}</Paragraph>
    </EmailLayout>
  );
}

/** To the team when a product's stock falls to its threshold (once per crossing; decision 063). */
export function LowStock({ name, left }: { name: string; left: number }) {
  const state = left === 0 ? "is sold out" : `has ${left} left`;
  return (
    <EmailLayout title={left === 0 ? `${name} is sold out` : `${name} is running low`}>
      <Paragraph>
        <Strong>{name}</Strong>
        {` ${state}.`}
      </Paragraph>
      <Paragraph>
        {`The shop says "${left === 0 ? "Sold out" : `Only ${left} left`}" on its page. Set a new stock count in the dashboard (Products) once the next batch is made.`}
      </Paragraph>
    </EmailLayout>
  );
}
