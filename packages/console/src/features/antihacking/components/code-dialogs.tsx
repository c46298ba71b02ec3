/**
 * The anti-hacking code on screen: the bottom drawer a sale's code opens in (spec: height 200, the code or N/A,
 * Cancel and Copy), and the dialog that shows the code of a plan just sold.
 */
import { useTranslation } from 'react-i18next';
import type { AntihackingAdded, AntihackingSale } from '@kisht/contract/plans';
import { formatActivationCode } from '@kisht/domain/activation-code';
import { formatDate } from '@kisht/domain/format';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { copyActivationCode } from '../hooks/copy-code.ts';
import './antihacking.css';

function CodeText({ code }: { code: string | null }) {
  const { t } = useTranslation();
  return (
    <output className="antihacking-code" aria-label={t('antihacking.code.label')}>
      {code ? formatActivationCode(code) : t('common.notAvailable')}
    </output>
  );
}

/** A sale's code in the bottom drawer; a cancelled or ended sale has none (N/A). */
export function CodeDrawer({ sale, onClose }: { sale: Pick<AntihackingSale, 'antihacking_code' | 'first_name' | 'last_name'>; onClose: () => void }) {
  const { t } = useTranslation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  return (
    <Dialog
      open
      title={t('antihacking.code.title')}
      onClose={onClose}
      variant="sheet"
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button--primary" onClick={() => void copyActivationCode(sale.antihacking_code)}>
            {t('antihacking.code.copy')}
          </button>
        </>
      }
    >
      <p className="antihacking-code-for muted small">{name}</p>
      <CodeText code={sale.antihacking_code} />
    </Dialog>
  );
}

/** The plan just sold: its code to give the customer, with Copy; closing it leaves the form (the caller decides where to). */
export function SoldDialog({ sale, onClose }: { sale: AntihackingAdded[number]; onClose: () => void }) {
  const { t } = useTranslation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  return (
    <Dialog
      open
      title={t('antihacking.sold.title')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.close')}
          </button>
          <button type="button" className="button button--primary" onClick={() => void copyActivationCode(sale.antihacking_code)}>
            {t('antihacking.code.copy')}
          </button>
        </>
      }
    >
      <p className="antihacking-code-for">{t('antihacking.sold.planFor', { plan: sale.plan_name, name })}</p>
      <CodeText code={sale.antihacking_code} />
      <p className="muted small">{t('antihacking.code.hint')}</p>
      <p className="muted small">
        {t('antihacking.sold.validUntil', { date: formatDate(sale.expires_at) })}
        {' · '}
        <span className="nowrap">{t('antihacking.sold.keysLeft', { count: sale.keys_left })}</span>
      </p>
    </Dialog>
  );
}
