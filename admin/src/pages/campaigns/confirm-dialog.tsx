import { Button, Group, Modal, Stack, type ButtonProps } from "@mantine/core";
import type { ReactNode } from "react";
import { FormRefusal } from "../../components/form-refusal";

/**
 * A question before a step that cannot be taken back (send, cancel): what it
 * does in words, the step's own button, and a way out that changes nothing.
 * A refusal from the shop shows in the dialog, beside the button that met it.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  keep,
  color,
  busy,
  refusal,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirm: string;
  keep: string;
  color?: ButtonProps["color"];
  busy: boolean;
  refusal: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack>
        {children}
        <FormRefusal message={refusal} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {keep}
          </Button>
          <Button color={color} onClick={onConfirm} loading={busy} data-autofocus>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
