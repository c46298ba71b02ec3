/**
 * An amount in rupees as the retailer types it (1500 or 1500.50): a text field with the ₹ prefix and the
 * phone's decimal keypad. The text goes back as typed; parsing it to paise is the form's (domain/money-input).
 */
import { TextField, type TextFieldProps } from './text-field.tsx';

export interface RupeeFieldProps extends Omit<TextFieldProps, 'prefix' | 'inputMode' | 'value' | 'onChange'> {
  value: string;
  onChange: (text: string) => void;
}

/** Long enough for ₹10,00,00,000.00 typed without separators. */
const RUPEE_TEXT_MAX = 12;

export function RupeeField({ value, onChange, maxLength = RUPEE_TEXT_MAX, autoComplete = 'off', ...rest }: RupeeFieldProps) {
  return <TextField {...rest} prefix="₹" inputMode="decimal" autoComplete={autoComplete} maxLength={maxLength} value={value} onChange={(event) => onChange(event.target.value)} />;
}
