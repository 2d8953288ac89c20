import { Badge, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { ListStates, TableCard } from "../../components/list-parts";
import { useDebouncedCallback } from "@mantine/hooks";
import { useTable } from "@refinedev/core";
import { OWNER_LIST_PAGE_SIZE, SUBSCRIBER_STATUSES, type SubscriberRow } from "@shop/owner-lists";
import { ExportButton } from "../../components/export-button";
import { Pager } from "../../components/pager";
import { ownerOnlyPage } from "../../components/owner-only";
import { filterChoice, filterValue } from "../../providers/resources/shared";
import { orderDate } from "../../components/status";
import { useFunctionMutation } from "../../functions";
import { answerToasts } from "../../toasts";

/** Where they gave consent (decision 101), in the owner's words, with what an imported list said. */
function joinedHow(subscriber: SubscriberRow) {
  const where = subscriber.source === "import" ? "Imported" : "Sign-up form";
  return subscriber.consentNote ? `${where}: ${subscriber.consentNote}` : where;
}

/**
 * Takes a subscribed address off the list, for someone who asked by email
 * (the List-Unsubscribe mailto reaches the shop's inbox): at once, with any
 * campaign copy not yet gone to them. Its answer comes back as a toast.
 */
function UnsubscribeAction({ subscriber, onDone }: { subscriber: SubscriberRow; onDone: () => void }) {
  const { call, mutation } = useFunctionMutation("unsubscribe-subscriber");
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-xs"
      aria-label={`Unsubscribe ${subscriber.email}`}
      loading={mutation.isPending}
      onClick={() => {
        if (!window.confirm(`Take ${subscriber.email} off the list? They get no more newsletters.`)) return;
        call({ email: subscriber.email }, answerToasts(`unsubscribe-${subscriber.id}`, { success: "Unsubscribed", error: "Not unsubscribed" }), {
          onSettled: onDone,
        });
      }}
    >
      Unsubscribe
    </Button>
  );
}

const statusOptions = [
  { value: "all", label: "Everyone" },
  { value: "subscribed", label: "Subscribed" },
  { value: "unsubscribed", label: "Unsubscribed" },
];

function SubscriberList() {
  const { tableQuery, result, filters, setFilters, currentPage, setCurrentPage, pageCount } = useTable<SubscriberRow>({
    resource: "subscribers",
    pagination: { pageSize: OWNER_LIST_PAGE_SIZE },
    syncWithLocation: true,
    errorNotification: false,
  });
  const q = filterValue(filters, "q") ?? "";
  const status = filterChoice(filters, "status", SUBSCRIBER_STATUSES) ?? "all";
  const setFilter = (field: string, value: string) => setFilters([{ field, operator: field === "q" ? "contains" : "eq", value: value || undefined }], "merge");
  const search = useDebouncedCallback((value: string) => setFilter("q", value.trim()), 300);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Newsletter subscribers</Title>
          <Text c="dimmed" size="sm">
            {tableQuery.isSuccess ? `${result.total} ${result.total === 1 ? "person" : "people"}` : "Everyone who signed up on the landing page."}
          </Text>
        </div>
        <ExportButton name="export-subscribers" body={{ q: q || undefined, status }} />
      </Group>

      <Card withBorder radius="lg">
        <Group align="end" wrap="wrap">
          <TextInput label="Search" placeholder="Email" defaultValue={q} onChange={(event) => search(event.currentTarget.value)} w={260} />
          <Select
            label="Show"
            data={statusOptions}
            value={status}
            onChange={(value) => setFilter("status", value === "all" ? "" : (value ?? ""))}
            allowDeselect={false}
            w={180}
          />
        </Group>
      </Card>

      {/* On a phone the date goes under the email, leaving the status its room. */}
      <TableCard minWidth={340} striped columns={["Email", { label: "Signed up", visibleFrom: "sm" }, { label: "Joined by", visibleFrom: "md" }, "Status"]}>
        {result.data.map((subscriber) => (
          <Table.Tr key={subscriber.id}>
            <Table.Td style={{ overflowWrap: "anywhere" }}>
              {/* A narrow column breaks the address before its @, not at its last letter. */}
              {subscriber.email.replace(/@.*$/, "")}
              <wbr />
              {subscriber.email.replace(/^[^@]*/, "")}
              <Text size="xs" c="dimmed" hiddenFrom="sm">
                Signed up {orderDate(subscriber.subscribedAt)}
              </Text>
            </Table.Td>
            <Table.Td miw={110} visibleFrom="sm">
              {orderDate(subscriber.subscribedAt)}
            </Table.Td>
            <Table.Td visibleFrom="md" title={`Consent given ${orderDate(subscriber.consentAt)}`}>
              <Text size="sm">{joinedHow(subscriber)}</Text>
              <Text size="xs" c="dimmed">
                Consent {orderDate(subscriber.consentAt)}
              </Text>
            </Table.Td>
            <Table.Td>
              {subscriber.unsubscribedAt ? (
                <Badge color="gray" variant="outline" title={`Unsubscribed ${orderDate(subscriber.unsubscribedAt)}`} miw="max-content">
                  Unsubscribed
                </Badge>
              ) : (
                // Never narrower than its word: a squeezed badge showed "SUBS…".
                <Group gap={6} wrap="nowrap">
                  {/* The delivered badge's colours (components/status.tsx): Mantine's light green is 3:1 at badge size. */}
                  <Badge bg="#d3f9d8" c="#1f6b30" variant="light" miw="max-content">
                    Subscribed
                  </Badge>
                  <UnsubscribeAction subscriber={subscriber} onDone={() => void tableQuery.refetch()} />
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </TableCard>
      <ListStates query={tableQuery} what="subscribers" count={result.data.length} empty="No subscribers found" />

      <Pager pageCount={pageCount} currentPage={currentPage} onChange={setCurrentPage} />
    </Stack>
  );
}

export default ownerOnlyPage("subscribers", SubscriberList);
