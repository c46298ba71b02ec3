/** What every step of the add-customer form receives from the screen. */
import type { EnrolDraft, FormField } from '../../../shared/customers/customer-form.ts';

export interface StepProps {
  draft: EnrolDraft;
  /** Changes some fields (and clears their errors). */
  update: (patch: Partial<EnrolDraft>) => void;
  /** The translated error of a field, if any. */
  errorOf: (field: FormField) => string | null;
}

