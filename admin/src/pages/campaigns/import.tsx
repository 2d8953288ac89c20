import { Alert, Button, Card, Code, Group, Input, List, Stack, Table, Text, Title } from "@mantine/core";
import { useInvalidate, useNotification, type HttpError } from "@refinedev/core";
import { useId, useRef, useState, type FormEvent } from "react";
import type { FunctionAnswer } from "~/functions/registry.server";
import { callFunctionWithFiles } from "../../api";
import { fieldErrorsOf } from "../../forms";
import { FormRefusal } from "../../components/form-refusal";

type ImportReport = FunctionAnswer<"import-subscribers">;

/**
 * An existing list (a CSV exported from another mailing tool, or a sign-up
 * sheet typed up) added to the family list: only the addresses whose people
 * said yes; the shop's report after says what it added, what it had already
 * and each line it refused, with why.
 */
export function ImportSubscribers() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const { open } = useNotification();
  const invalidate = useInvalidate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    setReport(null);
    if (!file) {
      setFileError("Choose a CSV file");
      input.current?.focus();
      return;
    }
    setFileError(null);
    setBusy(true);
    const form = new FormData();
    form.set("file", file);
    try {
      const answer = await callFunctionWithFiles("import-subscribers", form);
      setReport(answer);
      open?.({ key: "subscribers-import", type: "success", description: "List imported", message: `${answer.added} added` });
      void invalidate({ resource: "subscribers", invalidates: ["list"] });
    } catch (caught) {
      const error = caught as HttpError;
      const messages = fieldErrorsOf(error);
      if (messages.file) {
        setFileError(messages.file);
        input.current?.focus();
      } else setRefusal(error.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="lg" component="section" aria-labelledby={`${id}-title`}>
      <Title order={3} size="h4" id={`${id}-title`}>
        Import subscribers
      </Title>
      <Stack gap="xs" mt={4} mb="md">
        <Text size="sm" c="dimmed">
          Bring in a list you already have, as a CSV file whose first row names its columns:
        </Text>
        <List size="sm" c="dimmed" spacing={2}>
          <List.Item>
            <Code>email</Code> and <Code>consent</Code> (yes, true or 1, or the day they said yes), in any order;
          </List.Item>
          <List.Item>
            optionally <Code>consented_at</Code> and <Code>note</Code> (where they signed up).
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Only addresses with consent are added. Anyone who unsubscribed stays unsubscribed, and nobody is sent a welcome email.
        </Text>
      </Stack>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Import subscribers">
        <Group align="end" wrap="wrap" gap="sm">
          <Input.Wrapper label="CSV file" error={fileError} id={`${id}-file`} style={{ flex: "1 1 260px" }} maw={420}>
            <input
              ref={input}
              id={`${id}-file`}
              className="file-input"
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setFileError(null);
              }}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? `${id}-file-error` : undefined}
            />
          </Input.Wrapper>
          <Button type="submit" variant="light" loading={busy}>
            Import
          </Button>
        </Group>
        <FormRefusal message={refusal} mt="sm" />
      </form>
      {report ? <ImportReportView report={report} /> : null}
    </Card>
  );
}

function ImportReportView({ report }: { report: ImportReport }) {
  const { added, alreadySubscribed, refused, refusedTotal } = report;
  return (
    <Stack gap="sm" mt="md">
      <Alert color={refusedTotal > 0 ? "chocolate" : "green"} title="Imported" role="status">
        <Text size="sm" data-testid="import-summary">
          {added} added · {alreadySubscribed} already subscribed · {refusedTotal} refused
        </Text>
        {refusedTotal > refused.length ? (
          <Text size="sm" mt={4}>
            The first {refused.length} refused lines are below.
          </Text>
        ) : null}
      </Alert>
      {refused.length > 0 ? (
        <Table.ScrollContainer minWidth={420}>
          <Table striped verticalSpacing="xs" aria-label="Refused lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {refused.map((line) => (
                <Table.Tr key={line.line}>
                  <Table.Td>{line.line}</Table.Td>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>{line.email || "—"}</Table.Td>
                  <Table.Td>{line.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
