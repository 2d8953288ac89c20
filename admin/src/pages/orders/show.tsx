import { Alert, Anchor, Card, Grid, Group, Stack, Table, Text, Timeline, Title } from "@mantine/core";
import { useOne } from "@refinedev/core";
import { formatCents } from "@shop/money";
import { REFUND_PENDING_LABEL, isTakenPayment, orderLinkExpiresAt, shortOrderId, type MaskedOrderWithHistory, type TrackingView } from "@shop/orders";
import { Link, useParams } from "react-router";
import { Loading, QueryError } from "../../components/loading";
import { EmailFlags, StatusBadge, orderDate } from "../../components/status";
import { CancelOrderButton, PartRefundedBadge, PaymentBadge, RefundPendingBadge, TrackingInfo } from "./payment";
import { RefundButton } from "./refund-dialog";
import { CustomerDetailsButton } from "./customer-details";
import { StatusSelect } from "./status-select";
import { DeliveryDay } from "./delivery-day";

/** One order, masked, with its history: status changes and tracking set or corrected. */
export function OrderShow() {
  const { id = "" } = useParams();
  // No toast when the order cannot be fetched: the page says 'Order not found' itself.
  const { result: order, query } = useOne<MaskedOrderWithHistory>({ resource: "orders", id, errorNotification: false });

  if (query.isLoading) return <Loading label="Loading the order" />;
  const notFound = (query.error as { statusCode?: number } | null)?.statusCode === 404;
  if (query.isError && !notFound) {
    return (
      <Stack>
        <Anchor component={Link} to="/">
          ← All orders
        </Anchor>
        <QueryError title="Failed to fetch the order" message={query.error?.message} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  if (!order) {
    return (
      <Stack>
        <Title order={2}>Order not found</Title>
        <Anchor component={Link} to="/">
          Back to orders
        </Anchor>
      </Stack>
    );
  }
  const taken = isTakenPayment(order.payment_status);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/">
        ← All orders
      </Anchor>
      <Group justify="space-between" align="center">
        <Title order={2}>
          Order <span style={{ fontFamily: "monospace" }}>{shortOrderId(order.id)}</span>
        </Title>
        <Group>
          {taken ? <StatusBadge status={order.status} /> : null}
          <PaymentBadge status={order.payment_status} />
          {order.payment_status === "paid" && order.refunded_cents > 0 ? <PartRefundedBadge /> : null}
          {order.refund_pending ? <RefundPendingBadge /> : null}
          {/* A checkout never paid has nothing to move along, refund or cancel: it is shown for what was in it. */}
          {taken ? (
            <>
              <StatusSelect orderId={order.id} status={order.status} label="Change status" refunded={order.payment_status === "refunded"} />
              <RefundButton order={order} />
              <CancelOrderButton order={order} />
            </>
          ) : null}
        </Group>
      </Group>
      {order.payment_mismatches.length > 0 ? <PaymentMismatches order={order} /> : null}
      {order.refunds.length > 0 ? <RefundsSummary order={order} /> : null}
      {order.refund_pending ? (
        <Alert
          color="yellow"
          variant="light"
          title={`${REFUND_PENDING_LABEL}: Stripe has not confirmed it yet`}
          // A deep amber: Mantine's light yellow title is under 4.5:1 on its own tint.
          styles={{ title: { color: "#7a4a00" } }}
          data-testid="refund-pending"
        >
          Asked of Stripe by {order.refund_pending.requested_by ?? "the owner"}, {orderDate(order.refund_pending.requested_at)}
          {order.refund_pending.reason ? `: ${order.refund_pending.reason}${/[.!?]$/.test(order.refund_pending.reason) ? "" : "."}` : "."} Stripe&apos;s answer
          did not come, so the shop keeps asking it (it can never refund twice) and marks the order refunded, and emails the customer, as soon as Stripe
          confirms. Nothing more to do.
        </Alert>
      ) : null}
      {order.tracking ? (
        <Card withBorder radius="lg">
          <Group gap="sm">
            <Text fw={700}>Tracking</Text>
            <TrackingInfo tracking={order.tracking} />
          </Group>
        </Card>
      ) : null}
      <DeliveryDay order={order} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="lg">
            <Title order={3} size="h4" mb="sm">
              Items
            </Title>
            <Table>
              <Table.Tbody>
                {order.items.map((item) => (
                  <Table.Tr key={item.product.id}>
                    <Table.Td>
                      {item.quantity} × {item.product.name}
                    </Table.Td>
                    <Table.Td ta="right">{formatCents(item.line_total_cents)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td fw={700}>{order.payment_status === "refunded" ? "Total (refunded)" : taken ? "Total paid" : "Total (never paid)"}</Table.Td>
                  <Table.Td ta="right" fw={700}>
                    {formatCents(order.total_cents)}
                  </Table.Td>
                </Table.Tr>
                {order.refunded_cents > 0 && order.payment_status !== "refunded" ? (
                  <Table.Tr>
                    <Table.Td>Refunded so far</Table.Td>
                    <Table.Td ta="right" data-testid="refunded-so-far">
                      {formatCents(order.refunded_cents)}
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder radius="lg">
            <Stack gap="xs">
              <Title order={3} size="h4">
                Customer
              </Title>
              <Text fw={700}>
                {order.shipping_info.firstName} {order.shipping_info.lastName}
              </Text>
              <Text>{order.customer_email}</Text>
              <Text>
                {order.shipping_info.city}, {order.shipping_info.state}
              </Text>
              <CustomerDetailsButton orderId={order.id} />
              <Text size="sm" c="dimmed">
                Placed {orderDate(order.created_at)}. Full details went to the fulfilment team by email.
              </Text>
              <Text size="sm" c="dimmed">
                The customer&apos;s order page link works until {orderDate(orderLinkExpiresAt(order.created_at).toISOString())}.
              </Text>
              <EmailFlags order={order} />
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
      <OrderHistory order={order} />
    </Stack>
  );
}

/** Each refund of the order (decision 066): how much, who, when, why, and for which items, with the total so far. */
/** Stripe took another amount than the order's total: the order is not paid here until the owner settles it (decision 080). */
function PaymentMismatches({ order }: { order: MaskedOrderWithHistory }) {
  return (
    <Alert color="red" variant="light" title="A payment did not match this order's total" data-testid="payment-mismatch">
      <Stack gap={4}>
        {order.payment_mismatches.map((mismatch) => (
          <Text size="sm" key={mismatch.session_id}>
            Stripe took <strong>{formatCents(mismatch.paid_cents)}</strong> for this {formatCents(mismatch.total_cents)} order ({orderDate(mismatch.noticed_at)}
            , Checkout Session{" "}
            <Text span ff="monospace" size="sm" style={{ overflowWrap: "anywhere" }}>
              {mismatch.session_id}
            </Text>
            ).
          </Text>
        ))}
        <Text size="sm">
          It is not marked paid, so the kitchen has not been told. Look at the payment in Stripe&apos;s dashboard, then refund it there or contact the customer.
        </Text>
      </Stack>
    </Alert>
  );
}

function RefundsSummary({ order }: { order: MaskedOrderWithHistory }) {
  const whole = order.payment_status === "refunded";
  return (
    <Alert
      color="red"
      variant="light"
      title={
        whole ? `Refunded ${formatCents(order.refunded_cents)}` : `Partly refunded: ${formatCents(order.refunded_cents)} of ${formatCents(order.total_cents)}`
      }
      data-testid="refunds"
    >
      <Stack gap={4}>
        {order.refunds.map((refund, index) => (
          <Text size="sm" key={`${refund.refunded_at}-${index}`}>
            <strong>{formatCents(refund.amount_cents)}</strong>
            {refund.lines.length > 0 ? ` for ${refund.lines.map((line) => `${line.quantity} × ${line.name}`).join(", ")}` : ""}
            {refund.restocked ? " (back in stock)" : ""}
            {" · "}
            {refund.refunded_by === "Stripe" ? "in Stripe's dashboard" : `by ${refund.refunded_by}`}, {orderDate(refund.refunded_at)}
            {refund.reason ? `: ${refund.reason}` : ""}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** How a carrier and number read in the history: "UPS · 1Z999…", "Local courier", or "none". */
function trackingText(tracking: TrackingView) {
  return [tracking.carrier, tracking.number].filter(Boolean).join(" · ") || "none";
}

/** Status changes, tracking changes, looks at the customer's details and refunds Stripe refused, oldest first, each with who and when. */
function OrderHistory({ order }: { order: MaskedOrderWithHistory }) {
  const entries = [
    ...order.history.map((change) => ({ at: change.changed_at, by: change.changed_by, title: `${change.from} → ${change.to}`, detail: null })),
    ...order.details_shown.map((look) => ({ at: look.shown_at, by: look.shown_by, title: "Customer details shown", detail: null })),
    ...order.payment_mismatches.map((mismatch) => ({
      at: mismatch.noticed_at,
      by: "Stripe",
      title: `Payment of ${formatCents(mismatch.paid_cents)} not taken as paid: the order totals ${formatCents(mismatch.total_cents)}`,
      detail: mismatch.session_id,
    })),
    ...order.refund_refusals.map((refusal) => ({
      at: refusal.refused_at,
      by: "Stripe",
      title: `Refund refused by Stripe${refusal.requested_by ? ` (asked by ${refusal.requested_by})` : ""}`,
      detail: refusal.refusal,
    })),
    ...order.tracking_history.map((change) => {
      const first = change.from.carrier === null && change.from.number === null;
      return {
        at: change.changed_at,
        by: change.changed_by,
        title: first ? "Tracking set" : "Tracking corrected",
        detail: first ? trackingText(change.to) : `${trackingText(change.from)} → ${trackingText(change.to)}`,
      };
    }),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return (
    <Card withBorder radius="lg">
      <Title order={3} size="h4" mb="md">
        History
      </Title>
      {entries.length > 0 ? (
        <Timeline bulletSize={14} lineWidth={2} active={entries.length} role="list" aria-label="Order history">
          {entries.map((entry, index) => (
            <Timeline.Item key={`${entry.at}-${index}`} title={entry.title} role="listitem">
              {entry.detail ? (
                <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                  {entry.detail}
                </Text>
              ) : null}
              <Text size="sm" c="dimmed">
                {entry.by}, {orderDate(entry.at)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      ) : (
        <Text c="dimmed">No changes yet: the order is as it was placed.</Text>
      )}
    </Card>
  );
}
