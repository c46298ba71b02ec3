/** A plan's rules in plain words, under the plan dropdown: the kind of cover, what it covers, the deductible and the rest. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarrantyPlan } from '@kisht/contract/warranty';
import { rulesInWords } from '../hooks/rules.ts';

export function PlanRules({ plan }: { plan: WarrantyPlan }) {
  const { t } = useTranslation();
  const titleId = useId();
  const words = rulesInWords(plan.rules, (key, vars) => t(key, vars));
  return (
    <section className="warranty-rules" aria-labelledby={titleId}>
      <h2 id={titleId} className="warranty-rules__title">
        {t('warranty.rules.title')}
      </h2>
      <p className="warranty-rules__kind">{words.kind}</p>
      <p className="warranty-rules__subtitle">{t('warranty.certificate.sections.covers')}</p>
      <ul className="warranty-rules__list">
        {words.covers.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="warranty-rules__subtitle">{t('warranty.certificate.sections.deductibles')}</p>
      <ul className="warranty-rules__list">
        {words.deductibles.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <ul className="warranty-rules__list warranty-rules__facts">
        {words.facts.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {plan.terms ? <p className="muted small warranty-rules__terms">{plan.terms}</p> : null}
    </section>
  );
}
