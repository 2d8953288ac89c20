import { Alert, Anchor, Button, Card, Divider, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useGetIdentity } from "@refinedev/core";
import type { CampaignJson } from "@shop/campaigns";
import { shopWallClock } from "@shop/dates";
import { useState } from "react";
import { Link } from "react-router";
import { FormRefusal } from "../../components/form-refusal";
import { orderDate } from "../../components/status";
import { useAdminForm } from "../../forms";
import { useFunction, useFunctionMutation } from "../../functions";
import { answerToasts } from "../../toasts";
import { CancelDialog } from "./cancel-dialog";
import { ConfirmDialog } from "./confirm-dialog";

type WhenSaved = (action: (id: string) => void, failed?: () => void) => void;

/** "12 subscribers", "1 subscriber". */
const subscribersInWords = (count: number) => `${count} ${count === 1 ? "subscriber" : "subscribers"}`;

/**
 * How a saved campaign that has not started goes out: a test to one address,
 * now (after a question saying to how many), or at a time on the shop's
 * clock; once scheduled, the time and a way to call it off. Each action first
 * saves changes not saved yet (`whenSaved`).
 */
export function SendPanel({
  campaign,
  whenSaved,
  saving,
  onChanged,
}: {
  campaign: CampaignJson;
  whenSaved: WhenSaved;
  saving: boolean;
  onChanged?: () => void;
}) {
  const [dialog, setDialog] = useState<"test" | "send" | "cancel" | null>(null);
  const close = () => setDialog(null);
  const { query: settings } = useFunction("get-settings", { errorNotification: false });
  // The list's size as it is now: the campaign goes to everyone subscribed when it starts.
  const { query: subscribers } = useFunction("get-subscribers", { body: { status: "subscribed", pageSize: 1 }, errorNotification: false });
  // The answers themselves: Refine's `result.data` is an empty object until one comes.
  const count = subscribers.data?.data.total;
  const scheduled = campaign.status === "scheduled";

  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="campaign-send-title">
      <Title order={3} size="h4" id="campaign-send-title">
        Send
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {count === undefined
          ? "It goes to everyone subscribed when it starts."
          : `It goes to everyone subscribed when it starts: ${subscribersInWords(count)} now.`}
      </Text>
      <Stack gap="md">
        {settings.data && !settings.data.data.postalAddress ? (
          <Alert color="chocolate" title="No postal address yet" role="note">
            <Text size="sm">
              Every campaign carries the shop&apos;s postal address at its foot, as the law (CAN-SPAM) asks.{" "}
              <Anchor component={Link} to="/settings" size="sm" fw={700} c="inherit" underline="always">
                Set it in Settings
              </Anchor>{" "}
              before you send.
            </Text>
          </Alert>
        ) : null}
        {scheduled && campaign.sendAt ? (
          <Alert color="chocolate" title="Scheduled" role="note">
            <Text size="sm">Goes out {orderDate(campaign.sendAt)} (Los Angeles time). Changes you save go with it.</Text>
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button variant="default" onClick={() => setDialog("test")}>
            Send a test
          </Button>
          <Button onClick={() => setDialog("send")}>Send now</Button>
          {scheduled ? (
            <Button color="#a51d1d" variant="outline" onClick={() => setDialog("cancel")}>
              Cancel the campaign
            </Button>
          ) : null}
        </Group>
        <Divider />
        <ScheduleForm campaign={campaign} whenSaved={whenSaved} saving={saving} onChanged={onChanged} />
      </Stack>
      {dialog === "test" ? <TestDialog whenSaved={whenSaved} saving={saving} onClose={close} /> : null}
      {dialog === "send" ? <SendNowDialog campaign={campaign} count={count} whenSaved={whenSaved} saving={saving} onClose={close} onSent={onChanged} /> : null}
      {dialog === "cancel" ? <CancelDialog campaign={campaign} onClose={close} onCancelled={onChanged} /> : null}
    </Card>
  );
}

/** One copy to the address given (the operator's own to begin with), its subject marked [Test]. */
function TestDialog({ whenSaved, saving, onClose }: { whenSaved: WhenSaved; saving: boolean; onClose: () => void }) {
  const { data: identity } = useGetIdentity<{ email: string }>();
  const { form, refused, refusal, clearRefusal } = useAdminForm({ email: identity?.email ?? "" });
  const { call, mutation } = useFunctionMutation("send-test-campaign");
  const submit = ({ email }: { email: string }) => {
    clearRefusal();
    whenSaved(
      (id) =>
        call(
          { id, email },
          // The shop's words ("A test copy is on its way to …") in the toast; a refusal shows in the dialog.
          answerToasts("campaign-test", { success: "Test sent", error: false }),
          { onSuccess: onClose, onError: refused },
        ),
      onClose,
    );
  };
  return (
    <Modal opened onClose={onClose} title="Send a test" centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <TextInput
            type="email"
            label="Send the test to"
            description="One copy, its subject marked [Test]. Nobody else gets it."
            {...form.getInputProps("email")}
            required
            autoComplete="email"
            data-autofocus
          />
          <FormRefusal message={refusal} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={mutation.isPending || saving}>
              Send test
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SendNowDialog({
  campaign,
  count,
  whenSaved,
  saving,
  onClose,
  onSent,
}: {
  campaign: CampaignJson;
  count: number | undefined;
  whenSaved: WhenSaved;
  saving: boolean;
  onClose: () => void;
  onSent?: () => void;
}) {
  const { call, mutation } = useFunctionMutation("send-campaign");
  const [refusal, setRefusal] = useState<string | null>(null);
  const send = () => {
    setRefusal(null);
    whenSaved(
      (id) =>
        call({ id }, answerToasts("campaign-send", { success: "Campaign sending", error: false }), {
          onSuccess: () => {
            onClose();
            onSent?.();
          },
          onError: (error) => setRefusal(error.message),
        }),
      onClose,
    );
  };
  return (
    <ConfirmDialog
      title="Send this campaign now?"
      confirm={count === undefined ? "Send to everyone subscribed" : `Send to ${subscribersInWords(count)}`}
      keep="Not yet"
      busy={mutation.isPending || saving}
      refusal={refusal}
      onConfirm={send}
      onClose={onClose}
    >
      <Text size="sm">
        “{campaign.subject}” goes to {count === undefined ? "everyone subscribed" : `the ${subscribersInWords(count)} on the list`} now. Once it has gone it
        cannot be taken back; you can stop the copies not sent yet.
      </Text>
    </ConfirmDialog>
  );
}

/** A time on the shop's clock, as a datetime-local field takes it, for the campaign to start at. */
function ScheduleForm({ campaign, whenSaved, saving, onChanged }: { campaign: CampaignJson; whenSaved: WhenSaved; saving: boolean; onChanged?: () => void }) {
  const { form, refused, refusal, clearRefusal } = useAdminForm({ at: campaign.sendAtLocal ?? "" });
  const { call, mutation } = useFunctionMutation("send-campaign");
  const scheduled = campaign.status === "scheduled";
  const submit = ({ at }: { at: string }) => {
    clearRefusal();
    if (!at) {
      form.setFieldError("at", "Choose a day and a time");
      return;
    }
    whenSaved((id) =>
      call({ id, at }, answerToasts("campaign-schedule", { success: scheduled ? "Campaign rescheduled" : "Campaign scheduled", error: false }), {
        onSuccess: () => onChanged?.(),
        onError: refused,
      }),
    );
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Schedule">
      <Group align="start" gap="sm" wrap="wrap">
        <TextInput
          type="datetime-local"
          label="Send at (Los Angeles time)"
          description="The shop's clock, whatever this computer's says."
          // The description under the field, so the button beside it lines up with the field whatever the words.
          inputWrapperOrder={["label", "input", "description", "error"]}
          {...form.getInputProps("at")}
          min={shopWallClock(new Date())}
          w={260}
        />
        <Button type="submit" variant="light" loading={mutation.isPending || saving} mt={{ base: 0, xs: 25 }}>
          {scheduled ? "Reschedule" : "Schedule"}
        </Button>
      </Group>
      <FormRefusal message={refusal} mt="sm" />
    </form>
  );
}
