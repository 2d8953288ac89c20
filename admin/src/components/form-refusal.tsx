import { Alert, type AlertProps } from "@mantine/core";

/** A form's refusal that names no field (useAdminForm's `refusal`): an alert above its buttons, or nothing. */
export function FormRefusal({ message, ...props }: { message: string | null } & Pick<AlertProps, "mt">) {
  return message ? (
    <Alert color="red" role="alert" {...props}>
      {message}
    </Alert>
  ) : null;
}
