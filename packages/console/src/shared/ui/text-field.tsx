/** A labelled input with an optional visible prefix (+91) and an error message tied to it. */
import type { InputHTMLAttributes } from 'react';
import { Field } from './field.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> {
  label: string;
  error?: string | null;
  hint?: string;
  prefix?: string;
}

export function TextField({ label, error, hint, prefix, id, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => (
        <>
          {prefix ? <span className="field__prefix">{prefix}</span> : null}
          <input className="field__input" {...control} {...input} />
        </>
      )}
    </Field>
  );
}
