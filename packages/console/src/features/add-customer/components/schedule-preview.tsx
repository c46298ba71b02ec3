/**
 * The live EMI schedule while the retailer types: EMI, interest, total, upfront and every instalment; with a
 * loan product, its Key Fact Statement figures too (APR with every charge, GST on interest, the no-cost discount).
 */
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@kisht/domain/emi';
import type { KeyFacts } from '@kisht/domain/loan-product';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { SummaryGrid } from '../../../shared/ui/summary-grid.tsx';
import { InstalmentHeadCells } from '../../../shared/customers/instalment-table.tsx';
import './add-customer.css';

export function SchedulePreview({ schedule, keyFacts = null }: { schedule: Schedule | null; keyFacts?: KeyFacts | null }) {
  const { t } = useTranslation();
  return (
    <section className="card schedule-preview" aria-labelledby="schedule-preview-title" aria-live="polite">
      <h2 id="schedule-preview-title">{t('addCustomer.preview.title')}</h2>
      {!schedule ? (
        <p className="muted">{t('addCustomer.preview.incomplete')}</p>
      ) : (
        <>
          <SummaryGrid
            four
            items={[
              { label: t('loan.emi'), value: formatRupees(schedule.emiPaise) },
              { label: t('addCustomer.preview.interest'), value: formatRupees(schedule.totalInterestPaise) },
              { label: t('addCustomer.preview.payable'), value: formatRupees(schedule.totalPayablePaise) },
              { label: t('addCustomer.preview.upfront'), value: formatRupees(schedule.upfrontPaise) },
            ]}
          />
          {keyFacts ? (
            <SummaryGrid
              four
              items={[
                { label: t('addCustomer.preview.apr'), value: `${keyFacts.apr}%` },
                { label: t('addCustomer.preview.totalCost'), value: formatRupees(keyFacts.totalCostPaise) },
                ...(keyFacts.taxPaise > 0 ? [{ label: t('addCustomer.preview.gst'), value: formatRupees(keyFacts.taxPaise) }] : []),
                ...(keyFacts.discountPaise > 0 ? [{ label: t('addCustomer.preview.discount'), value: formatRupees(keyFacts.discountPaise) }] : []),
              ]}
            />
          ) : null}
          <details className="schedule-preview__list" open>
            <summary>{t('addCustomer.preview.instalments', { count: schedule.instalments.length })}</summary>
            <table className="data-table">
              <thead>
                <tr>
                  <InstalmentHeadCells />
                  <th scope="col" className="num">
                    {t('addCustomer.preview.balance')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {schedule.instalments.map((i) => (
                  <tr key={i.number}>
                    <td>
                      {i.number}
                      {i.advance ? <span className="muted small"> {t('emi.advance')}</span> : null}
                    </td>
                    <td>{formatDate(i.dueDate)}</td>
                    <td className="num">{formatRupees(i.amountPaise)}</td>
                    <td className="num">{formatRupees(i.balanceAfterPaise)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
