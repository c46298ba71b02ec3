/** Pieces every instalment table shares: the number, due date and amount headings, and the amount cell with its penalty note. */
import { useTranslation } from 'react-i18next';
import { formatRupees } from '@kisht/domain/money';

/** The first three column headings of an instalment table (number, due date, amount). */
export function InstalmentHeadCells() {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t('emi.table.number')}</th>
      <th scope="col">{t('emi.table.dueDate')}</th>
      <th scope="col" className="num">
        {t('emi.table.amount')}
      </th>
    </>
  );
}

/** An instalment's amount, with the penalty added to it noted underneath. */
export function InstalmentAmountCell({ amountPaise, penaltyPaise }: { amountPaise: number; penaltyPaise: number }) {
  const { t } = useTranslation();
  return (
    <td className="num cell-amount" data-label={t('emi.table.amount')}>
      {formatRupees(amountPaise)}
      {penaltyPaise > 0 ? <span className="cell-note">{t('emi.penalty', { amount: formatRupees(penaltyPaise) })}</span> : null}
    </td>
  );
}
