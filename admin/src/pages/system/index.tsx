import { Alert, Anchor, Badge, Box, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { formatCents } from "@shop/money";
import { shortOrderId } from "@shop/orders";
import type { SystemJson } from "@shop/system";
import { Link } from "react-router";
import type { ReactNode } from "react";
import { LoadingRows, QueryError } from "../../components/loading";
import { ownerOnlyPage } from "../../components/owner-only";
import { orderDate } from "../../components/status";
import { EmailList } from "./emails";
import { ERROR_RED, unsqueezed, When } from "./shared";
import { useFunction } from "../../functions";

/**
 * The owner's System page (decision 054): which release runs, the database,
 * the email queue, the last Stripe webhook and the background jobs, read from
 * the database every instance shares; below, the emails, where a sent or dead
 * one can be sent again.
 */
function SystemView() {
  // No toast on failure: the page shows the error in place of the cards.
  const { result, query } = useFunction("get-system", {
    errorNotification: false,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>System</Title>
          <Text c="dimmed" size="sm">
            How the shop and its background work stand, the same whichever server answers.
          </Text>
        </div>
        <Button variant="default" onClick={() => void query.refetch()} loading={query.isFetching && !query.isLoading}>
          Refresh
        </Button>
      </Group>

      {query.isLoading ? <LoadingRows label="Loading the system's state…" /> : null}
      {query.isError ? <QueryError title="Failed to fetch the system's state" message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess && result.data ? <SystemCards system={result.data} /> : null}

      <EmailList onResent={() => void query.refetch()} />
    </Stack>
  );
}

/** Orders Stripe reported paid for another amount than their total: not marked paid until the owner settles each (decision 080). */
function PaymentMismatchList({ mismatches }: { mismatches: SystemJson["paymentMismatches"] }) {
  return (
    <Alert color="red" variant="light" title="Payments that did not match their order" data-testid="payment-mismatches">
      <Stack gap={4}>
        {mismatches.map((mismatch) => (
          <Text size="sm" key={`${mismatch.orderId}-${mismatch.noticedAt}`}>
            <Anchor component={Link} to={`/orders/${mismatch.orderId}`} ff="monospace">
              {shortOrderId(mismatch.orderId)}
            </Anchor>
            : Stripe took {formatCents(mismatch.paidCents)} for a {formatCents(mismatch.totalCents)} order, <When iso={mismatch.noticedAt} />. Not marked paid:
            settle it in Stripe&apos;s dashboard.
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

function SystemCards({ system }: { system: SystemJson }) {
  const { release, database, emails, lastWebhook, jobs, paymentMismatches } = system;
  return (
    <>
      {paymentMismatches.length > 0 ? <PaymentMismatchList mismatches={paymentMismatches} /> : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <InfoCard title="Release">
          <Facts
            facts={[
              ["Version", release.version],
              [
                "Commit",
                release.commit ? (
                  <Text span ff="monospace" size="sm" title={release.commit}>
                    {release.commit.slice(0, 7)}
                  </Text>
                ) : (
                  "Unknown"
                ),
              ],
            ]}
          />
        </InfoCard>
        <InfoCard title="Database">
          <Facts
            facts={[
              [
                "State",
                database.ready ? (
                  <Badge color="#237032" style={unsqueezed}>
                    Ready
                  </Badge>
                ) : (
                  <Stack gap={2} align="start">
                    <Badge color={ERROR_RED} style={unsqueezed}>
                      Not ready
                    </Badge>
                    {database.reason ? (
                      <Text size="sm" c={ERROR_RED} style={{ overflowWrap: "anywhere" }}>
                        {database.reason}
                      </Text>
                    ) : null}
                  </Stack>
                ),
              ],
              [
                "Migrations",
                database.migrations
                  ? `${database.migrations.database ?? "?"} in the database, ${database.migrations.release ?? "?"} in this release`
                  : "Unknown",
              ],
              ["PostgreSQL", database.version ?? "Unknown"],
            ]}
          />
        </InfoCard>
        <InfoCard title="Email queue">
          <Facts
            facts={[
              ["Waiting", String(emails.pending)],
              ["Oldest waiting", emails.oldestPendingAt ? <When iso={emails.oldestPendingAt} /> : "None"],
              [
                "Dead",
                <Text key="dead" span size="sm" fw={emails.dead > 0 ? 700 : undefined} c={emails.dead > 0 ? ERROR_RED : undefined}>
                  {emails.dead}
                </Text>,
              ],
              ["Sent in the last 24 h", String(emails.sentLastDay)],
            ]}
          />
        </InfoCard>
        <InfoCard title="Last webhook">
          {lastWebhook ? (
            <Facts
              facts={[
                [
                  "Type",
                  <Text key="type" span ff="monospace" size="sm" style={{ overflowWrap: "anywhere" }}>
                    {lastWebhook.type}
                  </Text>,
                ],
                ["Received", <When key="when" iso={lastWebhook.receivedAt} />],
                [
                  "Processed",
                  lastWebhook.processed ? (
                    <Badge color="#237032" style={unsqueezed}>
                      Yes
                    </Badge>
                  ) : (
                    <Badge bg="#ffe066" c="#5c4200" style={unsqueezed}>
                      Not yet
                    </Badge>
                  ),
                ],
              ]}
            />
          ) : (
            <Text size="sm" c="dimmed">
              No webhook from Stripe received yet.
            </Text>
          )}
        </InfoCard>
      </SimpleGrid>

      <InfoCard title="Background jobs">
        {jobs.length === 0 ? (
          <Text size="sm" c="dimmed">
            No job has run yet.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Background jobs">
            {jobs.map((job) => (
              <Box component="li" key={job.name}>
                <Text fw={700} ff="monospace" size="sm" mb={4}>
                  {job.name}
                </Text>
                <Facts
                  facts={[
                    ["Last run", job.lastStartedAt ? <When iso={job.lastStartedAt} /> : "Never"],
                    ["Finished", job.lastFinishedAt ? orderDate(job.lastFinishedAt) : "Not yet"],
                    ["Last result", job.lastResult ?? "None yet"],
                    ...(job.lastError
                      ? [
                          [
                            "Last error",
                            <Text key="error" span size="sm" c={ERROR_RED} style={{ overflowWrap: "anywhere" }}>
                              {job.lastError}
                            </Text>,
                          ] as const,
                        ]
                      : []),
                    [
                      "Failures in a row",
                      <Text key="failures" span size="sm" fw={job.failures > 0 ? 700 : undefined} c={job.failures > 0 ? ERROR_RED : undefined}>
                        {job.failures}
                      </Text>,
                    ],
                  ]}
                />
              </Box>
            ))}
          </SimpleGrid>
        )}
      </InfoCard>
    </>
  );
}

/** A card of the page's top, a region named by its title. */
function InfoCard({ title, children }: { title: string; children: ReactNode }) {
  const id = `system-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <Card withBorder radius="lg" component="section" aria-labelledby={id}>
      <Title order={3} size="h4" mb="xs" id={id}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** Labels and their values, as a description list. */
function Facts({ facts }: { facts: readonly (readonly [string, ReactNode])[] }) {
  return (
    <Box
      component="dl"
      m={0}
      style={{
        display: "grid",
        gridTemplateColumns: "minmax(7rem, auto) 1fr",
        columnGap: "var(--mantine-spacing-sm)",
        rowGap: 6,
      }}
    >
      {facts.map(([label, value]) => (
        <div key={label} style={{ display: "contents" }}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: "anywhere", minWidth: 0 }}>
            {value}
          </Text>
        </div>
      ))}
    </Box>
  );
}

export default ownerOnlyPage("system", SystemView);
