import { Badge, Button, Card, Group, Select, Stack, Table, Text, Title } from "@mantine/core";
import { ListStates, TableCard } from "../../components/list-parts";
import { useTable, type HttpError } from "@refinedev/core";
import { EMAILS_PAGE_SIZE, type EmailListStatus, type EmailRow } from "@shop/system";
import { useState } from "react";
import { Pager } from "../../components/pager";
import { orderDate } from "../../components/status";
import { useWide } from "../../components/wide";
import { filterValue } from "../../providers/resources/shared";
import { answerToasts } from "../../toasts";
import { ERROR_RED, unsqueezed } from "./shared";
import { useFunctionMutation } from "../../functions";

const statusOptions = [
  { value: "all", label: "All" },
  { value: "pending", label: "Waiting" },
  { value: "sent", label: "Sent" },
  { value: "dead", label: "Dead" },
];

/** Each status's badge, 4.5:1 and more at badge size: waiting yellow, sent green, dead a filled red. */
const statusBadges: Record<EmailListStatus, { label: string; bg: string; c: string }> = {
  pending: { label: "Waiting", bg: "#ffe066", c: "#5c4200" },
  sent: { label: "Sent", bg: "#d3f9d8", c: "#1f6b30" },
  dead: { label: "Dead", bg: ERROR_RED, c: "#fff" },
};

function EmailStatusBadge({ status }: { status: EmailListStatus }) {
  const { label, ...colors } = statusBadges[status];
  return (
    <Badge {...colors} variant="filled" style={unsqueezed}>
      {label}
    </Badge>
  );
}

/** When it went out; a dead email never did. */
const sentWhen = (email: EmailRow) => (email.sentAt ? orderDate(email.sentAt) : email.status === "dead" ? "Never" : "Not yet");

/** An address that, in a narrow column, breaks before its @ rather than at a hyphen or its last letter. */
function Address({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** Which email a control is about, for its accessible name: `"<subject>" to <to>`. */
const which = (email: EmailRow) => `"${email.subject}" to ${email.to}`;

/** An email's last error: two lines at most, the rest behind Show all (and in the text's title). */
function LastError({ email }: { email: EmailRow }) {
  const [open, setOpen] = useState(false);
  if (!email.lastError) return <Text size="sm">None</Text>;
  const long = email.lastError.length > 80;
  const toggle = open ? "Show less" : "Show all";
  return (
    <Stack gap={2} align="start">
      <Text size="sm" c={ERROR_RED} title={email.lastError} lineClamp={open ? undefined : 2} style={{ overflowWrap: "anywhere" }}>
        {email.lastError}
      </Text>
      {long ? (
        <Button variant="subtle" size="compact-xs" aria-expanded={open} aria-label={`${toggle} of the error of ${which(email)}`} onClick={() => setOpen(!open)}>
          {toggle}
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * Resend for a sent or dead email not resent yet: the server queues one copy,
 * once; "Resent" with the copy's id once it has been. Its answer comes back as
 * a toast (a refusal's own words), and the list and the cards are refetched.
 */
function ResendAction({ email, onResent }: { email: EmailRow; onResent: () => void }) {
  const { call, mutation } = useFunctionMutation("resend-email");
  if (email.resentAs) {
    return (
      <Text size="sm" className="nowrap" title={`Resent as ${email.resentAs}`}>
        Resent{" "}
        <Text span size="xs" c="dimmed" ff="monospace">
          as {email.resentAs.slice(0, 8)}
        </Text>
      </Text>
    );
  }
  if (email.status === "pending") return null;
  return (
    <Button
      variant="outline"
      size="xs"
      // The visible word first, so the name contains it (WCAG 2.5.3).
      aria-label={`Resend ${which(email)}`}
      loading={mutation.isPending}
      onClick={() =>
        call(
          { id: email.id },
          {
            ...answerToasts(`email-${email.id}`, {
              success: "Email queued again",
              error: "Email not resent",
            }),
          },
          { onSettled: onResent },
        )
      }
    >
      Resend
    </Button>
  );
}

/** The outbox, newest first, filtered by status and paged on the server; the filter and page are kept in the URL. */
export function EmailList({ onResent }: { onResent: () => void }) {
  const { tableQuery, result, filters, setFilters, currentPage, setCurrentPage, pageCount } = useTable<EmailRow, HttpError>({
    resource: "emails",
    pagination: { pageSize: EMAILS_PAGE_SIZE },
    syncWithLocation: true,
    errorNotification: false,
  });
  const status = filterValue(filters, "status") ?? "all";
  const wide = useWide("md");
  const refresh = () => {
    void tableQuery.refetch();
    onResent();
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="system-emails">
      <Group justify="space-between" align="end">
        <div>
          <Title order={3} id="system-emails">
            Emails
          </Title>
          <Text c="dimmed" size="sm">
            {tableQuery.isSuccess
              ? `${result.total} ${result.total === 1 ? "email" : "emails"}, newest first.`
              : "Every email the shop sent or will send, newest first."}
          </Text>
        </div>
        <Select
          label="Status"
          data={statusOptions}
          value={status}
          onChange={(value) =>
            setFilters(
              [
                {
                  field: "status",
                  operator: "eq",
                  value: value === "all" ? undefined : (value ?? undefined),
                },
              ],
              "merge",
            )
          }
          allowDeselect={false}
          w={150}
        />
      </Group>

      {/* On a phone each email is a card; from md up, a table row. */}
      {wide ? null : (
        <Stack gap="sm" component="ul" aria-label="Emails" p={0} m={0} style={{ listStyle: "none" }}>
          {result.data.map((email) => (
            <Card key={email.id} withBorder radius="lg" padding="sm" component="li">
              <Group justify="space-between" align="start" wrap="nowrap" gap="xs">
                <Text fw={700} size="sm" style={{ overflowWrap: "anywhere" }}>
                  {email.subject}
                </Text>
                <EmailStatusBadge status={email.status} />
              </Group>
              <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                To {email.to}
              </Text>
              <Text size="xs" c="dimmed">
                {email.kind} · {email.attempts} {email.attempts === 1 ? "attempt" : "attempts"}
              </Text>
              <Text size="xs" c="dimmed">
                Created {orderDate(email.createdAt)}
                {email.sentAt ? ` · sent ${orderDate(email.sentAt)}` : ""}
              </Text>
              {email.lastError ? (
                <Stack mt={4} gap={0}>
                  <LastError email={email} />
                </Stack>
              ) : null}
              <Group justify="end" mt={4}>
                <ResendAction email={email} onResent={refresh} />
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {wide ? (
        <TableCard
          minWidth={1080}
          striped
          columns={["To", "Subject", "Status", { label: "Attempts", ta: "right" }, "Last error", "Created", "Sent", { label: "Actions", hidden: true }]}
        >
          {result.data.map((email) => (
            <Table.Tr key={email.id}>
              <Table.Td miw={220} maw={300} style={{ overflowWrap: "anywhere" }}>
                <Address email={email.to} />
              </Table.Td>
              <Table.Td maw={280}>
                <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                  {email.subject}
                </Text>
                <Text size="xs" c="dimmed">
                  {email.kind}
                </Text>
              </Table.Td>
              <Table.Td>
                <EmailStatusBadge status={email.status} />
              </Table.Td>
              <Table.Td ta="right">{email.attempts}</Table.Td>
              <Table.Td maw={280}>
                <LastError email={email} />
              </Table.Td>
              <Table.Td className="nowrap">{orderDate(email.createdAt)}</Table.Td>
              <Table.Td className="nowrap">{sentWhen(email)}</Table.Td>
              <Table.Td>
                <ResendAction email={email} onResent={refresh} />
              </Table.Td>
            </Table.Tr>
          ))}
        </TableCard>
      ) : null}
      <ListStates query={tableQuery} what="emails" count={result.data.length} empty="No emails here" />

      <Pager pageCount={pageCount} currentPage={currentPage} onChange={setCurrentPage} />
    </Stack>
  );
}
