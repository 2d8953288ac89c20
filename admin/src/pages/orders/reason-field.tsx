import { Textarea, type TextareaProps } from "@mantine/core";
import { REFUND_REASON } from "@shop/orders";

/** What is wrong with a refund's reason, in the owner's words, or null: the bounds refund-order holds it to. */
export function reasonProblem(reason: string) {
  const length = reason.trim().length;
  return length < REFUND_REASON.min || length > REFUND_REASON.max ? `Give a reason of ${REFUND_REASON.min} to ${REFUND_REASON.max} characters.` : null;
}

/** A refund's reason: kept in the order's record, never shown to the customer; its value, change and message from the dialog's form. Focused when its dialog opens (Mantine's data-autofocus) with `focusOnOpen`. */
export function ReasonField({
  focusOnOpen = false,
  ...input
}: { focusOnOpen?: boolean } & Pick<TextareaProps, "value" | "onChange" | "error" | "onFocus" | "onBlur">) {
  return (
    <Textarea
      label="Reason"
      description="Kept in the order's record for the team; the customer's email does not show it."
      {...input}
      maxLength={REFUND_REASON.max}
      autosize
      minRows={2}
      required
      {...(focusOnOpen ? { "data-autofocus": true } : {})}
    />
  );
}
