/** A labelled multi-line text box (a description, a note) with an error message tied to it. */
import type { TextareaHTMLAttributes } from 'react';
import { Field } from './field.tsx';

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string | null;
  hint?: string;
}

export function TextAreaField({ label, error, hint, id, className, rows = 3, ...area }: TextAreaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => <textarea className="field__input field__textarea" rows={rows} {...control} {...area} />}
    </Field>
  );
}
