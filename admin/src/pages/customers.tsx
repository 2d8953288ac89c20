import { Alert, Button, Card, Group, List, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import type { HttpError } from "@refinedev/core";
import { useState } from "react";
import { callFunction } from "../api";
import { useAdminForm } from "../forms";
import { ownerOnlyPage } from "../components/owner-only";

type Changed = { orders: number; subscriptions: number; inquiries: number; emails: number; geocoderEntries: number };

/**
 * A customer's data request (issue 23, item 6; decision 062): everything the
 * shop holds about a mailbox, downloaded as JSON to send them, or erased on
 * their request (the books keep amounts, dates, items and the delivery city).
 * The owner's; each request is recorded, under a hash of the address.
 */
export default ownerOnlyPage("customers", CustomerData);

function CustomerData() {
  const { form, refused } = useAdminForm({ email: "" });
  const email = form.getValues().email;
  const [busy, setBusy] = useState<"export" | "forget" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: "exported" | "forgotten" | "error"; text: string; changed?: Changed } | null>(null);

  /** The address checked before either action: the server checks it again (its message lands beside the field). */
  const valid = () => {
    const ok = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim());
    if (!ok) form.setFieldError("email", "Enter the customer's email address.");
    return ok;
  };

  /** A refusal: beside the field it names, else in the outcome. */
  const failed = (error: HttpError) => {
    refused(error);
    setOutcome({ kind: "error", text: error.message });
  };

  const exportData = async () => {
    if (!valid()) return;
    setBusy("export");
    setOutcome(null);
    try {
      const data = await callFunction("export-customer", { email: email.trim() });
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `customer-data-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setOutcome({
        kind: "exported",
        text: `Downloaded: ${data.orders.length} order(s), ${data.subscriptions.length} subscription(s), ${data.inquiries.length} inquiry(ies), ${data.emails.length} email(s).`,
      });
    } catch (error) {
      failed(error as HttpError);
    } finally {
      setBusy(null);
    }
  };

  const forget = async () => {
    setConfirming(false);
    setBusy("forget");
    setOutcome(null);
    try {
      const { changed } = await callFunction("forget-customer", { email: email.trim() });
      setOutcome({ kind: "forgotten", text: "What changed:", changed });
    } catch (error) {
      failed(error as HttpError);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={2}>Customer data</Title>
        <Text c="dimmed" size="sm">
          A customer may ask what the shop holds about them, or ask to be forgotten (the California Consumer Privacy Act). Any spelling of their address finds
          them.
        </Text>
      </div>
      <Card withBorder radius="lg">
        <form onSubmit={form.onSubmit(() => void exportData())} noValidate>
          <Stack>
            <TextInput label="Customer's email" type="email" autoComplete="off" {...form.getInputProps("email")} required />
            <Group>
              <Button type="submit" loading={busy === "export"} disabled={busy !== null}>
                Export their data (JSON)
              </Button>
              <Button color="red.9" variant="outline" loading={busy === "forget"} disabled={busy !== null} onClick={() => valid() && setConfirming(true)}>
                Forget this customer…
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>

      {outcome ? (
        <Alert
          color={outcome.kind === "error" ? "red" : "chocolate"}
          title={outcome.kind === "error" ? "Not done" : outcome.kind === "exported" ? "Exported" : "Forgotten"}
          role={outcome.kind === "error" ? "alert" : "status"}
        >
          <Text size="sm">{outcome.text}</Text>
          {outcome.changed ? (
            <List size="sm" mt="xs">
              <List.Item>{outcome.changed.orders} order(s): name, street, phone and email erased; amounts, items and the delivery city kept</List.Item>
              <List.Item>{outcome.changed.subscriptions} newsletter subscription(s) deleted</List.Item>
              <List.Item>{outcome.changed.inquiries} partnership inquiry(ies) deleted</List.Item>
              <List.Item>{outcome.changed.emails} email(s) erased</List.Item>
              <List.Item>{outcome.changed.geocoderEntries} saved address lookup(s) deleted</List.Item>
            </List>
          ) : null}
        </Alert>
      ) : null}

      <Card withBorder radius="lg">
        <Title order={3} size="h5">
          Kept no longer than needed
        </Title>
        <Text size="sm" c="dimmed">
          Every day the shop erases the names and addresses of checkouts never paid, what its emails said, and saved address lookups once they are old enough:
          by default 30, 90 and 90 days (docs/operations.md says how to change them).
        </Text>
      </Card>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Forget this customer?" centered>
        <Stack>
          <Text size="sm">
            Every order of <strong>{email.trim()}</strong> loses its name, street, phone and email; their newsletter subscription and inquiries are deleted, and
            what their emails said is erased. Amounts, dates, items and the delivery city stay for the books. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void forget()}>
              Forget
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
