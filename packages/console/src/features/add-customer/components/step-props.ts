/** What every step of the add-customer form receives from the screen. */
import type { EnrolDraft, FormField } from '../hooks/enrol-form.ts';

export interface StepProps {
  draft: EnrolDraft;
  /** Changes some fields (and clears their errors). */
  update: (patch: Partial<EnrolDraft>) => void;
  /** The translated error of a field, if any. */
  errorOf: (field: FormField) => string | null;
}

/** Keeps the digits of what was typed or pasted, at most `max` of them. */
export function digitsOnly(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** Ten local digits of a mobile number typed or pasted with +91, spaces or dashes. */
export function localMobile(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length > 10 ? digits.slice(-10) : digits;
}
