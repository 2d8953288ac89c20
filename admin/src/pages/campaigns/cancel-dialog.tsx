import { Text } from "@mantine/core";
import type { CampaignJson } from "@shop/campaigns";
import { useState } from "react";
import { useFunctionMutation } from "../../functions";
import { answerToasts } from "../../toasts";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * Cancel a campaign (cancel-campaign): a scheduled one never goes out; one
 * sending stops, and what has not gone does not go. The dialog says which,
 * and shows the shop's refusal (one that finished meanwhile) beside its button.
 */
export function CancelDialog({ campaign, onClose, onCancelled }: { campaign: CampaignJson; onClose: () => void; onCancelled?: () => void }) {
  const { call, mutation } = useFunctionMutation("cancel-campaign");
  const [refusal, setRefusal] = useState<string | null>(null);
  const sending = campaign.status === "sending";
  const cancel = () => {
    setRefusal(null);
    call({ id: campaign.id }, answerToasts("campaign-cancel", { success: sending ? "Sending cancelled" : "Campaign cancelled", error: false }), {
      onSuccess: () => {
        onClose();
        onCancelled?.();
      },
      onError: (error) => setRefusal(error.message),
    });
  };
  return (
    <ConfirmDialog
      title={sending ? "Cancel sending?" : "Cancel this campaign?"}
      confirm={sending ? "Cancel sending" : "Cancel the campaign"}
      keep={sending ? "Keep sending" : "Keep it scheduled"}
      color="#a51d1d"
      busy={mutation.isPending}
      refusal={refusal}
      onConfirm={cancel}
      onClose={onClose}
    >
      <Text size="sm">
        {sending
          ? `The ${campaign.counts.waiting} copies still waiting will not go. The ${campaign.counts.sent} sent already have reached their inboxes.`
          : `“${campaign.subject}” will not go out. It stays in the list as cancelled; to send it another time, write it again as a new campaign.`}
      </Text>
    </ConfirmDialog>
  );
}
