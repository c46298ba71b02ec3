/** The privacy policy and the refund policy: headed sections whose text lives in the dictionaries. */
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../shared/ui/page.tsx';
import './info.css';

const PRIVACY_SECTIONS = ['collect', 'use', 'device', 'sharing', 'retention', 'security', 'rights', 'contact'] as const;
const REFUND_SECTIONS = ['scope', 'eligible', 'notEligible', 'emi', 'process', 'timeline', 'contact'] as const;

function Policy({ group, sections }: { group: 'privacy' | 'refund'; sections: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <PublicPage title={t(`${group}.title`)}>
      <p>{t(`${group}.intro`)}</p>
      {sections.map((id) => (
        <section key={id} className="policy-section" aria-labelledby={`${group}-${id}`}>
          <h2 id={`${group}-${id}`}>{t(`${group}.sections.${id}.title`)}</h2>
          <p>{t(`${group}.sections.${id}.body`)}</p>
        </section>
      ))}
    </PublicPage>
  );
}

export function PrivacyPolicyScreen() {
  return <Policy group="privacy" sections={PRIVACY_SECTIONS} />;
}

export function RefundPolicyScreen() {
  return <Policy group="refund" sections={REFUND_SECTIONS} />;
}
