import { Anchor, Badge, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { CanAccess, useInvalidate } from "@refinedev/core";
import { formatCents } from "@shop/money";
import { PAYMENT_STATUS_LABELS, REFUND_PENDING_LABEL, shortOrderId, type MaskedOrder, type PaymentStatus } from "@shop/orders";
import { useState, type ReactNode } from "react";
import { useAdminForm } from "../../forms";
import { FormRefusal } from "../../components/form-refusal";
import { useFunctionMutation } from "../../functions";
import { ReasonField, reasonProblem } from "./reason-field";

/** A tint behind a deep shade of the same colour, at least 4.5:1 at badge size (as the status badges). */
const paymentColors: Record<PaymentStatus, { bg: string; c: string }> = {
  unpaid: { bg: "#e9ecef", c: "#495057" },
  paid: { bg: "#c3fae8", c: "#0b5c46" },
  expired: { bg: "#e9ecef", c: "#495057" },
  cancelled: { bg: "#e9ecef", c: "#495057" },
  refunded: { bg: "#ffe3e3", c: "#a51d1d" },
};

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge {...paymentColors[status]} variant="light" data-testid="payment-badge" style={{ flexShrink: 0 }}>
      {PAYMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A paid order some of whose money went back (decision 066): still paid, and still to be delivered. */
export function PartRefundedBadge() {
  return (
    <Badge bg="#ffe3e3" c="#a51d1d" variant="light" data-testid="part-refunded-badge" style={{ flexShrink: 0 }}>
      Part refunded
    </Badge>
  );
}

/** A refund asked of Stripe that Stripe has not confirmed yet: the order is still paid until it does (decision 042). */
export function RefundPendingBadge() {
  return (
    <Badge bg="#fff3bf" c="#7a4a00" variant="light" data-testid="refund-pending-badge" style={{ flexShrink: 0 }}>
      {REFUND_PENDING_LABEL}
    </Badge>
  );
}

/** What cancel-order answers. */
type ReasonAnswer = { message: string };

/** An order's carrier and tracking number, linked to the carrier's page when it has one. */
export function TrackingInfo({ tracking, size = "sm" }: { tracking: MaskedOrder["tracking"]; size?: "xs" | "sm" }) {
  if (!tracking) return null;
  return (
    <Text size={size} data-testid="tracking">
      {tracking.carrier}
      {tracking.number ? (
        <>
          {" · "}
          {tracking.url ? (
            <Anchor href={tracking.url} target="_blank" rel="noopener noreferrer" size={size} ff="monospace">
              {tracking.number}
            </Anchor>
          ) : (
            <Text span size={size} ff="monospace">
              {tracking.number}
            </Text>
          )}
        </>
      ) : null}
    </Text>
  );
}

/**
 * The owner's Cancel order (decision 064), for an order not yet shipped: a
 * paid one is refunded in full first, and its customer gets one email saying
 * both; its stock and code use come back; the order is `cancelled` for good.
 */
export function CancelOrderButton({
  order,
}: {
  order: Pick<MaskedOrder, "id" | "status" | "payment_status" | "total_cents" | "refunded_cents" | "refund_pending">;
}) {
  if ((order.status !== "pending" && order.status !== "preparing") || order.refund_pending) return null;
  const paid = order.payment_status === "paid" && order.total_cents > 0;
  return (
    <ReasonDialogAction
      orderId={order.id}
      url="cancel-order"
      buttonLabel="Cancel order"
      title={`Cancel order ${shortOrderId(order.id)}`}
      explanation={
        paid ? (
          <>
            The order will not be made or delivered. The customer gets{" "}
            {order.refunded_cents > 0 ? (
              "the rest of what they paid"
            ) : (
              <>
                all of <strong>{formatCents(order.total_cents)}</strong>
              </>
            )}{" "}
            back on their card and one email saying the order was cancelled and refunded. This cannot be undone.
          </>
        ) : (
          <>The order will not be made or delivered. No money was taken, so there is nothing to refund. This cannot be undone.</>
        )
      }
      submitLabel="Cancel the order"
      successTitle={() => "Order cancelled"}
    />
  );
}

/** A deep-red action that asks the reason first: the reason is kept in the order's record, never shown to the customer. */
function ReasonDialogAction({
  orderId,
  url,
  buttonLabel,
  title,
  explanation,
  submitLabel,
  successTitle,
}: {
  orderId: string;
  url: "cancel-order";
  buttonLabel: string;
  title: string;
  explanation: ReactNode;
  submitLabel: string;
  successTitle: (answer: ReasonAnswer | undefined) => string;
}) {
  const [opened, setOpened] = useState(false);
  const { form, refused, refusal, clearRefusal } = useAdminForm({ reason: "" });
  const invalidate = useInvalidate();
  const { call, mutation } = useFunctionMutation(url);

  const submit = ({ reason }: { reason: string }) => {
    clearRefusal();
    const problem = reasonProblem(reason);
    if (problem) {
      form.setFieldError("reason", problem);
      return;
    }
    call(
      { orderId, reason: reason.trim() },
      {
        // The dialog shows a failure itself, next to the button to try again.
        errorNotification: false,
        successNotification: (response) => ({
          key: `${url}-${orderId}`,
          type: "success" as const,
          description: successTitle(response?.data),
          message: response?.data?.message ?? "",
        }),
      },
      {
        onSuccess: () => {
          setOpened(false);
          void invalidate({ resource: "orders", invalidates: ["list", "detail"], id: orderId });
        },
        onError: refused,
      },
    );
  };

  return (
    <CanAccess resource="orders" action="refund">
      {/* A deep red outline: 4.5:1 and more on white (Mantine's light red gives 3.7). */}
      <Button color="#a51d1d" variant="outline" onClick={() => setOpened(true)}>
        {buttonLabel}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={title} centered>
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <Text size="sm">{explanation}</Text>
            <ReasonField {...form.getInputProps("reason")} focusOnOpen />
            <FormRefusal message={refusal} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={mutation.isPending}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </CanAccess>
  );
}
