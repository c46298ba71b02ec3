/** A labelled native select (the phone's own picker) with an error message tied to it. */
import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from './field.tsx';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | null;
  hint?: string;
  children: ReactNode;
}

export function SelectField({ label, error, hint, id, className, children, ...select }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => (
        <select className="field__input field__select" {...control} {...select}>
          {children}
        </select>
      )}
    </Field>
  );
}
