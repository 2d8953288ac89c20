import { Anchor, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { ListStates } from "../../components/list-parts";
import { useDebouncedCallback } from "@mantine/hooks";
import { useTable } from "@refinedev/core";
import { brand } from "@shop/brand";
import { OWNER_LIST_PAGE_SIZE } from "@shop/owner-lists";
import type { ListRow } from "../../api";
import { ExportButton } from "../../components/export-button";
import { Pager } from "../../components/pager";
import { ownerOnlyPage } from "../../components/owner-only";
import { filterValue } from "../../providers/resources/shared";
import { orderDate } from "../../components/status";

type InquiryRow = ListRow<"get-inquiries", "inquiries">;

/** Partnership inquiries as cards: a message reads better as a paragraph than as a table cell, on any screen. */
function InquiryList() {
  const { tableQuery, result, filters, setFilters, currentPage, setCurrentPage, pageCount } = useTable<InquiryRow>({
    resource: "inquiries",
    pagination: { pageSize: OWNER_LIST_PAGE_SIZE },
    syncWithLocation: true,
    errorNotification: false,
  });
  const q = filterValue(filters, "q") ?? "";
  const search = useDebouncedCallback((value: string) => setFilters([{ field: "q", operator: "contains", value: value.trim() || undefined }], "merge"), 300);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Partnership inquiries</Title>
          <Text c="dimmed" size="sm">
            {tableQuery.isSuccess
              ? `${result.total} ${result.total === 1 ? "inquiry" : "inquiries"}`
              : `Cafés, gyms and shops that asked to stock ${brand.name}.`}
          </Text>
        </div>
        <ExportButton name="export-inquiries" body={{ q: q || undefined }} />
      </Group>

      <Card withBorder radius="lg">
        <TextInput
          label="Search"
          placeholder="Name, email, business or message"
          defaultValue={q}
          onChange={(event) => search(event.currentTarget.value)}
          maw={360}
        />
      </Card>

      <ListStates query={tableQuery} what="inquiries" count={result.data.length} empty="No inquiries found" />

      <Stack gap="md" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {result.data.map((inquiry) => (
          <Card key={inquiry.id} withBorder radius="lg" component="li">
            <Group justify="space-between" align="start" wrap="wrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Title order={3} size="h4">
                  {inquiry.business ?? inquiry.name}
                </Title>
                <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                  {inquiry.business ? `${inquiry.name} · ` : null}
                  <Anchor href={`mailto:${inquiry.email}`}>{inquiry.email}</Anchor>
                </Text>
              </div>
              <Text size="sm" c="dimmed">
                {orderDate(inquiry.receivedAt)}
              </Text>
            </Group>
            <Text mt="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {inquiry.message}
            </Text>
          </Card>
        ))}
      </Stack>

      <Pager pageCount={pageCount} currentPage={currentPage} onChange={setCurrentPage} />
    </Stack>
  );
}

export default ownerOnlyPage("inquiries", InquiryList);
