import { Group, Loader, NativeSelect, Text } from "@mantine/core";
import { useUpdate } from "@refinedev/core";
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from "@shop/orders";

const options = ORDER_STATUSES.map((value) => ({ value, label: ORDER_STATUS_LABELS[value] }));

/**
 * The status dropdown of one order: disabled with 'Updating order status...'
 * while its update is in flight; Refine then refetches the list and shows the
 * server's answer as a toast (one per order, so a retry replaces it).
 */
export function StatusSelect({ orderId, status, label }: { orderId: string; status: OrderStatus; label: string }) {
  const notificationKey = `order-status-${orderId}`;
  const { mutate, mutation } = useUpdate<{ id: string; message: string }>({
    resource: "orders",
    id: orderId,
    successNotification: (response) => ({
      key: notificationKey,
      type: "success",
      description: "Status updated",
      message: response?.data.message ?? "",
    }),
    errorNotification: (error) => ({
      key: notificationKey,
      type: "error",
      description: "Failed to update order status",
      message: error?.message ?? "",
    }),
  });
  const isPending = mutation.isPending;

  return (
    <Group gap="xs" wrap="nowrap">
      <NativeSelect
        aria-label={label}
        value={status}
        onChange={(event) => mutate({ values: { status: event.currentTarget.value } })}
        disabled={isPending}
        data={options}
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
    </Group>
  );
}
