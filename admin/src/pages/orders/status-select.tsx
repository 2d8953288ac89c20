import { Group, Loader, NativeSelect, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useUpdate } from "@refinedev/core";
import { ORDER_STATUSES } from "../../api";

/**
 * The status dropdown of one order: disabled with 'Updating order status...'
 * while its update is in flight; Refine then refetches the list.
 */
export function StatusSelect({ orderId, status, label }: { orderId: string; status: string; label: string }) {
  const { mutate, mutation } = useUpdate<{ id: string; message: string }>();
  const isPending = mutation.isPending;

  function change(newStatus: string) {
    mutate(
      { resource: "orders", id: orderId, values: { status: newStatus }, successNotification: false, errorNotification: false },
      {
        onSuccess: ({ data }) => notifications.show({ color: "green", title: "Status updated", message: data.message }),
        onError: (error) =>
          notifications.show({ color: "red", title: "Failed to update order status", message: error.message }),
      },
    );
  }

  return (
    <Group gap="xs" wrap="nowrap">
      <NativeSelect
        aria-label={label}
        value={ORDER_STATUSES.includes(status as (typeof ORDER_STATUSES)[number]) ? status : ""}
        onChange={(event) => change(event.currentTarget.value)}
        disabled={isPending}
        data={[
          ...(ORDER_STATUSES.includes(status as (typeof ORDER_STATUSES)[number]) ? [] : [{ value: "", label: status, disabled: true }]),
          ...ORDER_STATUSES.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) })),
        ]}
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
