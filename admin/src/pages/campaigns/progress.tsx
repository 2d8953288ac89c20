import { Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { CampaignCounts, CampaignJson } from "@shop/campaigns";
import { useState } from "react";
import { CancelDialog } from "./cancel-dialog";
import { CampaignPreview } from "./preview";
import { doneOf, hasStarted } from "./status";

const COUNTS: { key: Exclude<keyof CampaignCounts, "recipients">; label: string }[] = [
  { key: "sent", label: "Sent" },
  { key: "failed", label: "Failed" },
  { key: "waiting", label: "Waiting" },
  { key: "unsubscribed", label: "Unsubscribed since" },
];

/**
 * A campaign that has started (or was cancelled): how far its copies have
 * got, asked for again every 2 s while it sends (the page's query), with a
 * way to stop the rest; and the email as it went.
 */
export function CampaignProgress({ campaign, onChanged }: { campaign: CampaignJson; onChanged: () => void }) {
  return (
    <div className="campaign-layout">
      <div className="campaign-layout__edit">
        {hasStarted(campaign) ? (
          <ProgressCard campaign={campaign} onChanged={onChanged} />
        ) : (
          <Card withBorder radius="lg">
            <Text size="sm">Cancelled before it started: nobody was sent it.</Text>
          </Card>
        )}
      </div>
      <div className="campaign-layout__preview">
        <CampaignPreview source={{ id: campaign.id }} />
      </div>
    </div>
  );
}

function ProgressCard({ campaign, onChanged }: { campaign: CampaignJson; onChanged: () => void }) {
  const [cancelling, setCancelling] = useState(false);
  const { counts } = campaign;
  const { done, percent } = doneOf(campaign);
  const sending = campaign.status === "sending";
  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="campaign-progress-title">
      <Title order={3} size="h4" id="campaign-progress-title">
        {sending ? "Sending" : campaign.status === "sent" ? "Sent" : "Stopped"}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {sending
          ? "The copies go out a few at a time; this page follows them."
          : campaign.status === "sent"
            ? "Every copy has gone, or was given up on, or was withdrawn for someone who left the list meanwhile."
            : "Cancelled while it sent: the copies not sent by then did not go."}
      </Text>
      <Stack gap="md">
        <div>
          <Group justify="space-between" mb={6}>
            <Text size="sm" fw={700} data-testid="campaign-done">
              {done} of {counts.recipients} {campaign.status === "cancelled" ? "went before it was cancelled" : "done"}
            </Text>
            <Text size="sm" c="dimmed">
              {percent}%
            </Text>
          </Group>
          <Progress value={percent} size="lg" radius="xl" color={counts.failed > 0 ? "orange" : "green"} animated={sending} aria-label="Copies done" />
        </div>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" className="campaign-counts">
          {COUNTS.map(({ key, label }) => (
            <div key={key} className="campaign-counts__item">
              <dt>{label}</dt>
              <dd data-testid={`count-${key}`}>{counts[key]}</dd>
            </div>
          ))}
        </SimpleGrid>
        {sending ? (
          <Group>
            <Button color="#a51d1d" variant="outline" onClick={() => setCancelling(true)}>
              Cancel sending
            </Button>
          </Group>
        ) : null}
      </Stack>
      {cancelling ? <CancelDialog campaign={campaign} onClose={() => setCancelling(false)} onCancelled={onChanged} /> : null}
    </Card>
  );
}
