import { Alert, Button, Checkbox, Group, Loader, Modal, NumberInput, SegmentedControl, Stack, Table, Text } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { CanAccess, useInvalidate } from "@refinedev/core";
import { dollarsToCents, formatCents } from "@shop/money";
import { REFUND_PENDING_LABEL, shortOrderId, type MaskedOrderWithHistory } from "@shop/orders";
import { keepPreviousData } from "@tanstack/react-query";
import { useState } from "react";
import { useAdminForm } from "../../forms";
import { FormRefusal } from "../../components/form-refusal";
import { useFunction, useFunctionMutation } from "../../functions";
import { ReasonField, reasonProblem } from "./reason-field";

type Mode = "rest" | "amount" | "lines";

/** What to refund besides the order's rest: an amount, or lines (and whether their stock goes back). */
type Ask = { restock?: boolean; amount?: number; lines?: { itemId: number; quantity: number }[] };

type RefundableOrder = Pick<
  MaskedOrderWithHistory,
  "id" | "payment_status" | "total_cents" | "refund_pending" | "refunded_cents" | "refund_left_cents" | "refundable_lines"
>;

/** Dollars typed by the owner as the server reads them: a number with at most 2 decimals, or null. */
function typedDollars(value: string | number): number | null {
  const number = typeof value === "number" ? value : Number(value);
  return Number.isFinite(number) && number > 0 && Math.round(number * 100) === Number((number * 100).toFixed(6)) ? number : null;
}

/**
 * The owner's Refund (decision 066), hidden for staff by Refine's access
 * control, for a $0 order and while a refund is pending: the rest of the
 * order, an amount, or chosen lines (their stock back if the owner ticks it).
 * Every figure in the dialog is the server's: it asks refund-order for a
 * preview as the choice changes, and the button says what it answered.
 */
export function RefundButton({ order }: { order: RefundableOrder }) {
  const [opened, setOpened] = useState(false);
  // A $0 order (a 100% code) took no money, so there is nothing to give back.
  if (order.payment_status !== "paid" || order.total_cents === 0 || order.refund_pending || order.refund_left_cents <= 0) return null;
  return (
    <CanAccess resource="orders" action="refund">
      {/* A deep red outline: 4.5:1 and more on white (Mantine's light red gives 3.7). */}
      <Button color="#a51d1d" variant="outline" onClick={() => setOpened(true)}>
        Refund
      </Button>
      {opened ? <RefundDialog order={order} onClose={() => setOpened(false)} /> : null}
    </CanAccess>
  );
}

/** The dialog's fields, each with its message: the owner's own check's, or refund-order's by its path ("reason", "amount"). */
type RefundFields = { mode: Mode; amount: string | number; quantities: Record<number, number>; restock: boolean; reason: string };

function RefundDialog({ order, onClose }: { order: RefundableOrder; onClose: () => void }) {
  const { form, refused, refusal, clearRefusal } = useAdminForm<RefundFields>({ mode: "rest", amount: "", quantities: {}, restock: false, reason: "" });
  const { mode, amount, quantities, restock, reason } = form.getValues();
  const invalidate = useInvalidate();
  // 200 when Stripe refunded (or had), 202 with `pending` when Stripe's answer did not come.
  const { call, mutation } = useFunctionMutation("refund-order");

  const lines = Object.entries(quantities)
    .filter(([, quantity]) => quantity > 0)
    .map(([itemId, quantity]) => ({ itemId: Number(itemId), quantity }));
  const dollars = typedDollars(amount);
  // What the server is asked to refund: null while the choice is not complete.
  const ask: Ask | null =
    mode === "rest" ? { restock } : mode === "amount" ? (dollars === null ? null : { amount: dollars }) : lines.length === 0 ? null : { lines, restock };

  const [debounced] = useDebouncedValue(ask ? JSON.stringify(ask) : null, 250);
  // With `preview: true`: what the refund would give back, in dollars, decided by the server.
  const { result, query } = useFunction("refund-order", {
    body: { orderId: order.id, preview: true, ...(debounced ? (JSON.parse(debounced) as Ask) : {}) },
    errorNotification: false,
    queryOptions: { enabled: debounced !== null && mode !== "rest", placeholderData: keepPreviousData, retry: false },
  });
  const current = ask !== null && debounced === JSON.stringify(ask);
  const previewCents =
    mode === "rest"
      ? order.refund_left_cents
      : current && !query.isError && result.data && "amount" in result.data && result.data.amount !== undefined
        ? dollarsToCents(result.data.amount)
        : null;
  const previewProblem = mode !== "rest" && current && query.isError ? query.error?.message : null;

  const submit = () => {
    clearRefusal();
    const problems = {
      ...(ask
        ? {}
        : mode === "amount"
          ? { amount: "Type an amount in dollars, with at most 2 decimals." }
          : { lines: "Choose how many of at least one line to refund." }),
      ...(reasonProblem(reason) ? { reason: reasonProblem(reason) } : {}),
    };
    form.setErrors(problems);
    if (!ask || Object.keys(problems).length > 0) return;
    call(
      { orderId: order.id, reason: reason.trim(), ...ask },
      {
        // The dialog shows a failure itself, next to the button to try again.
        errorNotification: false,
        successNotification: (response) => ({
          key: `refund-order-${order.id}`,
          type: "success" as const,
          description: response?.data && "pending" in response.data && response.data.pending ? REFUND_PENDING_LABEL : "Refunded",
          message: response?.data?.message ?? "",
        }),
      },
      {
        onSuccess: () => {
          onClose();
          void invalidate({ resource: "orders", invalidates: ["list", "detail"], id: order.id });
        },
        onError: refused,
      },
    );
  };

  const submitLabel = previewCents === null ? "Refund" : `Refund ${formatCents(previewCents)}`;

  return (
    <Modal opened onClose={onClose} title={`Refund order ${shortOrderId(order.id)}`} centered size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <Text size="sm">
            {order.refunded_cents > 0 ? (
              <>
                {formatCents(order.refunded_cents)} of {formatCents(order.total_cents)} is refunded already;{" "}
                <strong>{formatCents(order.refund_left_cents)}</strong> is left.
              </>
            ) : (
              <>
                The customer paid <strong>{formatCents(order.total_cents)}</strong>.
              </>
            )}{" "}
            The money goes back to their card through Stripe, and they get an email saying how much. This cannot be undone.
          </Text>
          <div>
            <Text size="sm" fw={500} id="refund-mode-label" mb={4}>
              What to refund
            </Text>
            <SegmentedControl
              aria-labelledby="refund-mode-label"
              value={mode}
              onChange={(value) => {
                // A message about the amount or the lines is about the other choice now.
                form.clearErrors();
                form.setFieldValue("mode", value as Mode);
              }}
              fullWidth
              data={[
                { value: "rest", label: order.refunded_cents > 0 ? "The rest" : "All of it" },
                { value: "amount", label: "An amount" },
                { value: "lines", label: "Chosen items" },
              ]}
            />
          </div>
          {mode === "amount" ? (
            <NumberInput
              label="Amount in dollars"
              description={`Up to ${formatCents(order.refund_left_cents)}.`}
              {...form.getInputProps("amount")}
              min={0.01}
              decimalScale={2}
              prefix="$"
              allowNegative={false}
              hideControls
              data-autofocus
            />
          ) : null}
          {mode === "lines" ? (
            <Stack gap={4}>
              <Table aria-label="Items to refund">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Item</Table.Th>
                    <Table.Th ta="right">How many to refund</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {order.refundable_lines.map((line) => (
                    <Table.Tr key={line.item_id}>
                      <Table.Td>
                        <Text size="sm">{line.name}</Text>
                        <Text size="xs" c="dimmed">
                          {line.refundable_quantity === line.quantity
                            ? `${line.quantity} ordered`
                            : `${line.refundable_quantity} of ${line.quantity} left to refund`}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <NumberInput
                          aria-label={`${line.name}: how many to refund`}
                          value={quantities[line.item_id] ?? 0}
                          onChange={(value) => {
                            form.clearFieldError("lines");
                            form.setFieldValue("quantities", { ...quantities, [line.item_id]: typeof value === "number" ? value : Number(value) || 0 });
                          }}
                          min={0}
                          max={line.refundable_quantity}
                          disabled={line.refundable_quantity === 0}
                          allowDecimal={false}
                          allowNegative={false}
                          clampBehavior="strict"
                          // Mantine's up and down chevrons are unnamed buttons; the arrow keys step the number all the same.
                          hideControls
                          w={96}
                          ml="auto"
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {form.errors.lines ? (
                <Text size="sm" c="red.8" role="alert">
                  {form.errors.lines}
                </Text>
              ) : null}
            </Stack>
          ) : null}
          {mode !== "amount" ? (
            <Checkbox
              label={mode === "rest" ? "Put the order's items back in stock" : "Put these items back in stock"}
              description="Only for products whose stock the shop counts."
              {...form.getInputProps("restock", { type: "checkbox" })}
            />
          ) : null}
          {mode === "lines" ? (
            <Text size="xs" c="dimmed">
              An item gives back what the customer paid for it (less its share of any discount); shipping comes back only with the rest of the order.
            </Text>
          ) : null}
          {previewProblem ? (
            <Alert color="red" role="status" title="This refund cannot be made">
              {previewProblem}
            </Alert>
          ) : null}
          <ReasonField {...form.getInputProps("reason")} focusOnOpen={mode === "rest"} />
          <FormRefusal message={refusal} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            {/* While Stripe is asked (up to two tries of 10 s each) the button says so in words, not with a spinner alone. */}
            <Button
              type="submit"
              color="red"
              disabled={Boolean(previewProblem) || mutation.isPending}
              leftSection={mutation.isPending ? <Loader size="xs" color="currentColor" aria-hidden="true" /> : undefined}
              aria-busy={mutation.isPending || undefined}
              data-testid="refund-submit"
            >
              {mutation.isPending ? "Asking Stripe… (up to 20 s)" : submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
