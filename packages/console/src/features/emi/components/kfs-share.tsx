/**
 * Share KFS: the loan's Key Fact Statement as text for the customer (the share sheet, else copied), worded
 * in the customer's language, which the retailer can change before sharing.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerProfile } from '@kisht/contract/customers';
import type { InstalmentView } from '@kisht/contract/emi';
import type { LoanTermsView } from '@kisht/contract/loan-terms';
import { isLanguage, type Language } from '@kisht/domain/constants';
import { LanguageSelect } from '../../../shared/ui/language-select.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { useGetMemberQuery } from '../../../shared/network/member-api.ts';
import { customerLanguage, kfsTranslator } from '../hooks/kfs-language.ts';
import { kfsText } from '../hooks/kfs-text.ts';
import { shareTextOrCopy } from '../hooks/share-text.ts';

interface KfsShareProps {
  profile: CustomerProfile;
  terms: LoanTermsView;
  /** The schedule, in order; null while the EMIs load. */
  instalments: readonly InstalmentView[] | null;
}

export function KfsShare({ profile, terms, instalments }: KfsShareProps) {
  const { t, i18n } = useTranslation();
  const own: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  // null: the customer's own language when the server says it, else the retailer's.
  const [chosen, setChosen] = useState<Language | null>(null);
  const lng = chosen ?? customerLanguage(profile) ?? own;
  const [sharing, setSharing] = useState(false);

  // The shop that made the loan: the user's own, or (for a parent looking at a child's customer) that member's.
  const { data: me } = useGetDetailsQuery();
  const theirs = me !== undefined && me.id !== profile.retailer_id;
  const { data: member } = useGetMemberQuery(profile.retailer_id, { skip: !theirs });
  const seller = theirs ? (member ?? me) : me;

  async function share() {
    if (!seller || !instalments) return;
    setSharing(true);
    try {
      const { t: customerT, fellBack } = await kfsTranslator(i18n, lng);
      const text = kfsText(
        {
          customerName: `${profile.first_name} ${profile.last_name}`.trim(),
          terms,
          instalments,
          shop: { name: seller.shop_name || `${seller.first_name} ${seller.last_name}`.trim(), mobile: seller.mobile },
        },
        customerT,
      );
      if (fellBack) toastKey('warning', 'kfs.languageFailed');
      const outcome = await shareTextOrCopy(customerT('kfs.title'), text);
      if (outcome === 'copied') toastKey('success', fellBack ? 'kfs.copiedInYours' : 'kfs.copied');
      else if (outcome === 'failed') toastKey('error', 'kfs.copyFailed');
    } finally {
      setSharing(false);
    }
  }

  return (
    <div className="stack">
      <LanguageSelect label={t('kfs.language')} value={lng} onChange={setChosen} />
      <div className="button-row">
        <button type="button" className="button button--secondary button--small" disabled={!seller || !instalments || sharing} onClick={() => void share()}>
          {t('kfs.share')}
        </button>
      </div>
    </div>
  );
}
