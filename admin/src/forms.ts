import { useForm } from "@mantine/form";
import type { HttpError } from "@refinedev/core";
import { useState } from "react";

/**
 * The server's field messages of a refused save (a 400's `fieldErrors`, by
 * path: "code", "zones.1.name"), one message a field, as a form shows them.
 */
export function fieldErrorsOf(error: HttpError | null | undefined): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const [path, value] of Object.entries(error?.errors ?? {})) {
    const message = typeof value === "string" ? value : Array.isArray(value) ? value[0] : typeof value === "object" ? value.message : undefined;
    if (message) messages[path] = message;
  }
  return messages;
}

/**
 * An admin form (Mantine's useForm): each field is declared once, by its
 * name in `initialValues`, and `form.getInputProps(name)` gives it its value,
 * its change and its message. The shop validates on the server (one schema,
 * app/functions): `refused(error)` puts a refused save's messages beside their
 * fields (a field's message goes once it is changed), or, when it names no
 * field, makes it the form's `refusal`.
 */
export function useAdminForm<Values extends Record<string, unknown>>(initialValues: Values | (() => Values)) {
  // Made once, as useForm reads its initial values once.
  const [initial] = useState(initialValues);
  const form = useForm<Values>({ mode: "controlled", initialValues: initial });
  // A refusal that names no field (the shop could not be reached, Stripe refused), for the form's alert (FormRefusal).
  const [refusal, setRefusal] = useState<string | null>(null);
  const refused = (error: HttpError) => {
    const messages = fieldErrorsOf(error);
    form.setErrors(messages);
    setRefusal(Object.keys(messages).length === 0 ? error.message : null);
  };
  return { form, refused, refusal, clearRefusal: () => setRefusal(null) };
}
