import { Button, Group, Text } from "@mantine/core";
import { notifications, notificationsStore, type NotificationData } from "@mantine/notifications";
import type { NotificationProvider, OpenNotificationParams } from "@refinedev/core";

function isShown(id: string) {
  const { notifications: visible, queue } = notificationsStore.getState();
  return [...visible, ...queue].some((notification) => notification.id === id);
}

function toMantine({ key, type, message, description, cancelMutation }: OpenNotificationParams): NotificationData {
  if (type === "progress") {
    // An undoable mutation: Refine reopens this every second with the seconds left in `message`.
    return {
      id: key,
      loading: true,
      autoClose: false,
      withCloseButton: false,
      title: description,
      message: (
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{message}</Text>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => {
              cancelMutation?.();
              if (key) notifications.hide(key);
            }}
          >
            Undo
          </Button>
        </Group>
      ),
    };
  }
  // Every field is set, so that a toast updated in place loses what its previous state (say, progress) had.
  return {
    id: key,
    loading: false,
    autoClose: true,
    withCloseButton: true,
    color: type === "success" ? "green" : "red",
    title: description,
    message,
  };
}

/**
 * Refine's toasts (the success and error notifications of its data hooks) shown
 * with Mantine 8; Refine's own `@refinedev/mantine` provider is for Mantine 5.
 * As in Refine's antd, MUI and Mantine providers, `description` is the toast's
 * title and `message` its text.
 */
export const notificationProvider: NotificationProvider = {
  open(params) {
    // The key is the toast's id: a repeated error updates its toast instead of stacking another.
    if (params.key && isShown(params.key)) notifications.update(toMantine(params));
    else notifications.show(toMantine(params));
  },
  close(key) {
    notifications.hide(key);
  },
};
