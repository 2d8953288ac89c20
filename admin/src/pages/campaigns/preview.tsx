import { Alert, Card, Group, Loader, Stack, Tabs, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData } from "@tanstack/react-query";
import { useState } from "react";
import type { FunctionBody } from "~/functions/registry.server";
import { LoadingRows } from "../../components/loading";
import { useFunction } from "../../functions";

type PreviewSource = FunctionBody<"preview-campaign">;

/** How long the typing stops before the preview is asked for again. */
const PREVIEW_DEBOUNCE_MS = 400;

const NEW_TAB_BASE = '<base target="_blank">';

/**
 * The email's links open in a tab of their own: followed inside the frame,
 * they would load the shop's pages there, which the shop refuses to be framed
 * (X-Frame-Options). A <base> with a target and no href changes nothing
 * else; it goes in the email's <head>, or where the parser makes one (after
 * the doctype) when the email has none.
 */
function linksInNewTab(html: string) {
  if (/<head[\s>]/i.test(html)) return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}${NEW_TAB_BASE}`);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? "";
  return `${doctype}${NEW_TAB_BASE}${html.slice(doctype.length)}`;
}

/**
 * The email as a subscriber gets it, rendered by the shop (preview-campaign):
 * from a saved campaign (`{ id }`), or from the draft as typed, asked for
 * again a moment after the owner stops typing. `source` is null while the
 * draft lacks what the shop needs to render it (a subject and a message).
 *
 * The HTML goes into a sandboxed frame (`srcDoc`, no scripts, an origin of its
 * own) with the page's Content-Security-Policy, which a srcdoc frame inherits:
 * an email's inline styles and its pictures from the shop show; nothing in it runs.
 */
export function CampaignPreview({ source }: { source: PreviewSource | null }) {
  const [view, setView] = useState<string | null>("email");
  const [debounced] = useDebouncedValue(source ? JSON.stringify(source) : null, PREVIEW_DEBOUNCE_MS);
  const { query } = useFunction("preview-campaign", {
    body: debounced ? (JSON.parse(debounced) as PreviewSource) : undefined,
    errorNotification: false,
    queryOptions: { enabled: debounced !== null, placeholderData: keepPreviousData, retry: false },
  });
  // The answer itself (Refine's `result.data` is an empty object until one comes).
  const email = debounced !== null && !query.isError ? query.data?.data : undefined;
  const refused = query.isError && query.error.statusCode === 400;

  return (
    <Card withBorder radius="lg" component="section" aria-labelledby="campaign-preview-title" aria-busy={query.isFetching}>
      <Group justify="space-between" align="center" mb="xs">
        <Title order={3} size="h4" id="campaign-preview-title">
          Preview
        </Title>
        {query.isFetching && email ? (
          <Group gap={6}>
            <Loader size="xs" aria-hidden="true" />
            <Text size="xs" c="dimmed">
              Updating…
            </Text>
          </Group>
        ) : null}
      </Group>
      {source === null || refused ? (
        <Text size="sm" c="dimmed" data-testid="preview-waiting">
          The preview shows once the campaign has a subject and a message.
          {refused && query.error.message ? ` The shop says: ${query.error.message}` : ""}
        </Text>
      ) : null}
      {query.isError && !refused ? (
        <Alert color="red" role="alert" title="Could not show the preview">
          {query.error.message}
        </Alert>
      ) : null}
      {source !== null && !email && !query.isError ? <LoadingRows label="Loading the preview…" /> : null}
      {email ? (
        <Stack gap="sm">
          <dl className="inbox-line">
            <dt>Subject</dt>
            <dd data-testid="preview-subject">{email.subject}</dd>
            <dt>Preview text</dt>
            <dd>
              {email.preheader || (
                <Text span c="dimmed" size="sm">
                  (none: inboxes show the start of the message)
                </Text>
              )}
            </dd>
          </dl>
          <Tabs value={view} onChange={setView} keepMounted={false}>
            <Tabs.List aria-label="Show the email as">
              <Tabs.Tab value="email">Email</Tabs.Tab>
              <Tabs.Tab value="text">Plain text</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="email" pt="sm">
              <iframe
                title={`Email preview: ${email.subject}`}
                srcDoc={linksInNewTab(email.html)}
                sandbox="allow-popups allow-popups-to-escape-sandbox"
                className="email-preview"
              />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="sm">
              <pre className="email-preview-text" data-testid="preview-text">
                {email.text}
              </pre>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      ) : null}
    </Card>
  );
}
