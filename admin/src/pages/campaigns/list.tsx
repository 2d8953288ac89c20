import { Anchor, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useTable } from "@refinedev/core";
import type { CampaignJson } from "@shop/campaigns";
import { OWNER_LIST_PAGE_SIZE } from "@shop/owner-lists";
import { Link } from "react-router";
import { ListStates, TableCard } from "../../components/list-parts";
import { ownerOnlyPage } from "../../components/owner-only";
import { Pager } from "../../components/pager";
import { useWide } from "../../components/wide";
import { ImportSubscribers } from "./import";
import { CampaignStatusBadge, campaignWhen, countsInWords, hasStarted, SENDING_POLL_MS } from "./status";

/** The owner's emails to the family list, newest first, each with its status and, once it started, what its copies came to; and a list to import. */
export default ownerOnlyPage("campaigns", CampaignList);

function CampaignList() {
  const wide = useWide("md");
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<CampaignJson>({
    resource: "campaigns",
    pagination: { pageSize: OWNER_LIST_PAGE_SIZE },
    syncWithLocation: true,
    errorNotification: false,
    // While a campaign goes out, the list follows its counts until it has gone.
    queryOptions: { refetchInterval: (query) => (query.state.data?.data.some((campaign) => campaign.status === "sending") ? SENDING_POLL_MS : false) },
  });
  const campaigns = result.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Campaigns</Title>
          <Text c="dimmed" size="sm">
            New flavours and offers, emailed to everyone subscribed to the family list.
          </Text>
        </div>
        <Button component={Link} to="/campaigns/new">
          New campaign
        </Button>
      </Group>
      <ListStates query={tableQuery} what="campaigns" count={campaigns.length} empty="No campaigns yet: write the first one." />
      {campaigns.length > 0 && !wide ? (
        <Stack gap="sm" component="ul" className="plain-list" aria-label="Campaigns">
          {/* On a phone each campaign is a card; from a laptop up, a table row. */}
          {campaigns.map((campaign) => (
            <Card key={campaign.id} withBorder radius="lg" padding="sm" component="li">
              <Group justify="space-between" wrap="nowrap" align="start">
                <CampaignLink campaign={campaign} />
                <CampaignStatusBadge status={campaign.status} />
              </Group>
              <Text size="sm" c="dimmed" mt={4}>
                {campaignWhen(campaign)}
              </Text>
              {hasStarted(campaign) ? (
                <Text size="sm" mt={2}>
                  {campaign.counts.recipients} recipients: {countsInWords(campaign)}
                </Text>
              ) : null}
            </Card>
          ))}
        </Stack>
      ) : null}
      {campaigns.length > 0 && wide ? (
        <TableCard minWidth={760} highlightOnHover columns={["Subject", "Status", "When", "Recipients", "Copies"]}>
          {campaigns.map((campaign) => (
            <Table.Tr key={campaign.id}>
              <Table.Td miw={220}>
                <CampaignLink campaign={campaign} />
              </Table.Td>
              <Table.Td>
                <CampaignStatusBadge status={campaign.status} />
              </Table.Td>
              <Table.Td miw={200}>{campaignWhen(campaign)}</Table.Td>
              <Table.Td>{hasStarted(campaign) ? campaign.counts.recipients : "—"}</Table.Td>
              <Table.Td miw={220}>{hasStarted(campaign) ? countsInWords(campaign) : "—"}</Table.Td>
            </Table.Tr>
          ))}
        </TableCard>
      ) : null}
      <Pager pageCount={pageCount} currentPage={currentPage} onChange={setCurrentPage} />

      <ImportSubscribers />
    </Stack>
  );
}

function CampaignLink({ campaign }: { campaign: CampaignJson }) {
  return (
    <Anchor component={Link} to={`/campaigns/${campaign.id}`} fw={700} style={{ overflowWrap: "anywhere" }}>
      {campaign.subject}
    </Anchor>
  );
}
