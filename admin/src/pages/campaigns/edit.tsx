import { Alert, Anchor, Group, Stack, Text, Title } from "@mantine/core";
import { EDITABLE_STATUSES, type CampaignJson } from "@shop/campaigns";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import { Loading, QueryError } from "../../components/loading";
import { OwnerOnly } from "../../components/owner-only";
import { useFunction } from "../../functions";
import { CampaignEditor } from "./editor";
import { CampaignProgress } from "./progress";
import { CampaignStatusBadge, campaignWhen, SENDING_POLL_MS } from "./status";

/** While a campaign waits for its time, how often the page asks whether it has started. */
const SCHEDULED_POLL_MS = 15_000;

/**
 * A new campaign (/campaigns/new) or a saved one (/campaigns/:id): its editor
 * while it has not started (a draft, or scheduled), its progress once it has,
 * with the email beside either.
 */
export default function CampaignPage() {
  const { id } = useParams();
  return (
    <OwnerOnly resource="campaigns" action={id ? "edit" : "create"}>
      {id ? (
        <SavedCampaign id={id} />
      ) : (
        <CampaignFrame title="New campaign">
          <CampaignEditor />
        </CampaignFrame>
      )}
    </OwnerOnly>
  );
}

function SavedCampaign({ id }: { id: string }) {
  const { query } = useFunction("get-campaigns", {
    body: { id },
    errorNotification: false,
    queryOptions: {
      // Sending, its counts move every moment; scheduled, it starts on its own at its time.
      refetchInterval: (asked) => {
        const status = asked.state.data?.data.campaigns[0]?.status;
        return status === "sending" ? SENDING_POLL_MS : status === "scheduled" ? SCHEDULED_POLL_MS : false;
      },
    },
  });
  const refetch = () => void query.refetch();
  if (query.isLoading) return <Loading label="Loading the campaign" />;
  // An address that is no campaign's id is answered 400, as one of no campaign is answered with none.
  if (query.isError && query.error.statusCode !== 400) {
    return <QueryError title="Failed to fetch the campaign" message={query.error.message} onRetry={refetch} />;
  }
  const campaign = query.data?.data.campaigns[0];
  if (!campaign) {
    return (
      <CampaignFrame title="Campaign not found">
        <Alert color="red" title="Campaign not found" role="alert">
          No campaign has this address: it may have been mistyped.
        </Alert>
      </CampaignFrame>
    );
  }
  return (
    <CampaignFrame title={campaign.subject} campaign={campaign}>
      {EDITABLE_STATUSES.includes(campaign.status) ? (
        // A fresh editor for each saved version the page is given back after a change of status (scheduled, cancelled).
        <CampaignEditor key={`${campaign.id}-${campaign.status}`} campaign={campaign} onChanged={refetch} />
      ) : (
        <CampaignProgress campaign={campaign} onChanged={refetch} />
      )}
    </CampaignFrame>
  );
}

/** The page around the editor or the progress: the way back, the title, the status and when. */
function CampaignFrame({ title, campaign, children }: { title: string; campaign?: CampaignJson; children: ReactNode }) {
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/campaigns">
        ← All campaigns
      </Anchor>
      <div>
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={2} style={{ overflowWrap: "anywhere" }}>
            {title}
          </Title>
          {campaign ? <CampaignStatusBadge status={campaign.status} /> : null}
        </Group>
        {campaign ? (
          <Text c="dimmed" size="sm" role="status">
            {campaignWhen(campaign)} · written by {campaign.createdBy}
          </Text>
        ) : (
          <Text c="dimmed" size="sm">
            An email to everyone subscribed to the family list. Write it, look at it, send yourself a test, then send it or choose when it goes.
          </Text>
        )}
      </div>
      {children}
    </Stack>
  );
}
