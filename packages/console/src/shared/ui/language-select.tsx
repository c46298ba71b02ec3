/** A picker of the ten languages, each named in its own script: the language of a document to share, not of the console. */
import { isLanguage, LANGUAGE_INFO, LANGUAGES, type Language } from '@kisht/domain/constants';
import { SelectField } from './select-field.tsx';

export interface LanguageSelectProps {
  label: string;
  value: Language;
  onChange: (lng: Language) => void;
  disabled?: boolean;
}

export function LanguageSelect({ label, value, onChange, disabled = false }: LanguageSelectProps) {
  return (
    <SelectField
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => {
        const chosen = event.target.value;
        if (isLanguage(chosen)) onChange(chosen);
      }}
    >
      {LANGUAGES.map((each) => (
        <option key={each} value={each} lang={LANGUAGE_INFO[each].tag}>
          {LANGUAGE_INFO[each].native}
        </option>
      ))}
    </SelectField>
  );
}
