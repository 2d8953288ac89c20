import type { getZodConstraint } from "@conform-to/zod";
import type { FormEvent, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { HONEYPOT_FIELD } from "~/lib/forms";

/**
 * The storefront's form fields. Each takes its constraints from the form's zod
 * schema (`FormConstraints` below), so the markup never restates a
 * rule the action checks. The forms keep `noValidate`, so a constraint never
 * blocks a post (maxLength only stops typing at the limit): the messages people
 * see are the server's, with or without JavaScript, as the spec words them.
 */

/**
 * What a form's schema says about each of its fields. Computed on the server
 * (`getZodConstraint(schema)`) and sent with the loader's data, so zod never
 * ships to the browser for it.
 */
export type FormConstraints = ReturnType<typeof getZodConstraint>;
type FieldConstraint = FormConstraints[string];

/** The attributes an input takes from its schema. */
export function constraintProps(constraint: FieldConstraint | undefined) {
  return {
    required: constraint?.required,
    minLength: constraint?.minLength,
    maxLength: constraint?.maxLength,
    pattern: constraint?.pattern,
  };
}

/** Marks a field the server refused, and points at the text that says why. */
export function errorProps(error: string | undefined, errorId: string | undefined) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
}

/**
 * A submit button's attributes while its form's answer is awaited: marked busy,
 * not disabled. A disabled button drops the keyboard's focus to the page, so a
 * slow or failed answer left a keyboard or screen-reader user at the top of it.
 * The form's onSubmit refuses a second press meanwhile (`refuseWhileWaiting`).
 */
export function waitingProps(waiting: boolean) {
  return waiting ? ({ "aria-disabled": true } as const) : {};
}

/** In a form's onSubmit: stops a press (or Enter in a field) while the last answer is awaited; true when it did. */
export function refuseWhileWaiting(event: FormEvent<HTMLFormElement>, waiting: boolean) {
  if (waiting) event.preventDefault();
  return waiting;
}

/**
 * A field's error. A `live` one is always in the page, as a polite live
 * region, so that a message that appears while the visitor types (a name past
 * its limit) is read out as it appears.
 */
export function FieldError({ id, error, live = false }: { id: string; error: string | undefined; live?: boolean }) {
  if (live) {
    return (
      <p className="field__error" id={id} aria-live="polite">
        {error ?? ""}
      </p>
    );
  }
  if (!error) return null;
  return (
    <p className="field__error" id={id}>
      {error}
    </p>
  );
}

type FieldProps<Attributes> = {
  /** The visible label; it is the control's accessible name. */
  label: ReactNode;
  constraint: FieldConstraint | undefined;
  error: string | undefined;
  className?: string;
  /** The error can appear while the visitor types: FieldError's live region. */
  live?: boolean;
  inputProps: Attributes & { id: string; name: string };
};

/** A label, an input and its error. */
export function Field({ label, constraint, error, className = "field", live, inputProps }: FieldProps<InputHTMLAttributes<HTMLInputElement>>) {
  const errorId = `${inputProps.id}-error`;
  return (
    <div className={className}>
      <label htmlFor={inputProps.id}>{label}</label>
      <input {...inputProps} {...constraintProps(constraint)} {...errorProps(error, errorId)} />
      <FieldError id={errorId} error={error} live={live} />
    </div>
  );
}

/** A label, a textarea and its error (a textarea has no `pattern`). */
export function TextareaField({ label, constraint, error, className = "field", inputProps }: FieldProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const errorId = `${inputProps.id}-error`;
  const { pattern: _pattern, ...constraints } = constraintProps(constraint);
  return (
    <div className={className}>
      <label htmlFor={inputProps.id}>{label}</label>
      <textarea {...inputProps} {...constraints} {...errorProps(error, errorId)} />
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** Invisible to people (and to assistive technology); bots fill it in, and the server's `isBot` reads it. */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
