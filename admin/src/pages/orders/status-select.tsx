import { Button, Group, Loader, Modal, NativeSelect, Stack, Text, TextInput, type NativeSelectProps } from "@mantine/core";
import { useUpdate } from "@refinedev/core";
import { FULFILMENT_STATUSES, ORDER_STATUS_LABELS, shortOrderId, type FulfilmentStatus, type OrderStatus } from "@shop/orders";
import { CARRIERS, checkTracking } from "@shop/tracking";
import { useState } from "react";
import { useAdminForm } from "../../forms";
import { answerToasts } from "../../toasts";

/** The steps an operator moves an order through; a cancelled order shows its status, and no step is offered. */
const options = FULFILMENT_STATUSES.map((value) => ({ value, label: ORDER_STATUS_LABELS[value] }));
const cancelledOptions = [{ value: "cancelled", label: ORDER_STATUS_LABELS.cancelled }];

type Tracking = { carrier: string | null; trackingNumber: string | null };

/**
 * The status dropdown of one order: disabled with 'Updating order status...'
 * while its update is in flight; Refine then refetches the list and shows the
 * server's answer as a toast (one per order, so a retry replaces it).
 * Choosing Shipped first asks for the carrier and tracking number (both
 * optional), which the customer's "on its way" email then gives. A refunded
 * order's status no longer moves.
 */
export function StatusSelect({ orderId, status, label, refunded = false }: { orderId: string; status: OrderStatus; label: string; refunded?: boolean }) {
  const [shipping, setShipping] = useState(false);
  const { mutate, mutation } = useUpdate<{ id: string; message: string }>({
    resource: "orders",
    id: orderId,
    ...answerToasts(`order-status-${orderId}`, { success: "Status updated", error: "Failed to update order status" }),
  });
  const isPending = mutation.isPending;

  const change = (next: FulfilmentStatus, tracking?: Tracking) => mutate({ values: { status: next, ...tracking } });
  const cancelled = status === "cancelled";

  return (
    <Group gap="xs" wrap="nowrap">
      <NativeSelect
        aria-label={label}
        value={status}
        onChange={(event) => {
          const next = event.currentTarget.value as FulfilmentStatus;
          if (next === "shipped") setShipping(true);
          else change(next);
        }}
        disabled={isPending || refunded || cancelled}
        title={cancelled ? "Cancelled orders are no longer fulfilled" : refunded ? "Refunded orders are no longer fulfilled" : undefined}
        data={cancelled ? cancelledOptions : options}
        size="xs"
        w={130}
      />
      {isPending ? (
        <Group gap={4} wrap="nowrap" role="status">
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            Updating order status...
          </Text>
        </Group>
      ) : null}
      <ShipDialog
        orderId={orderId}
        opened={shipping}
        onClose={() => setShipping(false)}
        onShip={(tracking) => {
          setShipping(false);
          change("shipped", tracking);
        }}
      />
    </Group>
  );
}

/** Asks for the carrier and tracking number, checked by the same rule the server applies. */
function ShipDialog({ orderId, opened, onClose, onShip }: { orderId: string; opened: boolean; onClose: () => void; onShip: (tracking: Tracking) => void }) {
  const { form } = useAdminForm({ carrier: "", trackingNumber: "" });

  const submit = (values: { carrier: string; trackingNumber: string }) => {
    const checked = checkTracking(values);
    if (!checked.ok) {
      form.setFieldError(checked.field, trackingProblem(checked));
      return;
    }
    onShip({ carrier: checked.carrier, trackingNumber: checked.trackingNumber });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Ship order ${shortOrderId(orderId)}`} centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            The customer&apos;s &quot;on its way&quot; email and order page show the carrier and tracking number, with a link to the carrier&apos;s tracking
            page. Leave them empty if you have none.
          </Text>
          <CarrierSelect {...form.getInputProps("carrier")} />
          <TextInput label="Tracking number" placeholder="e.g. 9400 1000 0000 0000 0000 00" autoComplete="off" {...form.getInputProps("trackingNumber")} />
          <ShipActions onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The carrier of a shipment (optional: a number needs one, a local courier has none), the one list the server accepts. */
export function CarrierSelect(input: Pick<NativeSelectProps, "value" | "onChange" | "error" | "onFocus" | "onBlur">) {
  return (
    <NativeSelect label="Carrier" data={[{ value: "", label: "No carrier" }, ...CARRIERS.map((carrier) => ({ value: carrier, label: carrier }))]} {...input} />
  );
}

/** What checkTracking found wrong, as its field's message: "Tracking number may only hold letters, digits and dashes." */
export function trackingProblem(checked: { field: "carrier" | "trackingNumber"; error: string }) {
  return `${checked.field === "carrier" ? "Carrier" : "Tracking number"} ${checked.error}.`;
}

/** A ship dialog's buttons: Cancel, and the form's submit. */
export function ShipActions({ onCancel }: { onCancel: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit">Mark as shipped</Button>
    </Group>
  );
}
