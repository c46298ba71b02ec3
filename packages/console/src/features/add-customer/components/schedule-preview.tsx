/** The live EMI schedule while the retailer types: EMI, interest, total, upfront and every instalment. */
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@kisht/domain/emi';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';

export function SchedulePreview({ schedule }: { schedule: Schedule | null }) {
  const { t } = useTranslation();
  return (
    <section className="card schedule-preview" aria-labelledby="schedule-preview-title" aria-live="polite">
      <h2 id="schedule-preview-title">{t('addCustomer.preview.title')}</h2>
      {!schedule ? (
        <p className="muted">{t('addCustomer.preview.incomplete')}</p>
      ) : (
        <>
          <div className="summary-grid summary-grid--four">
            <div>
              <span className="summary-grid__label">{t('loan.emi')}</span>
              <strong className="summary-grid__value">{formatRupees(schedule.emiPaise)}</strong>
            </div>
            <div>
              <span className="summary-grid__label">{t('addCustomer.preview.interest')}</span>
              <strong className="summary-grid__value">{formatRupees(schedule.totalInterestPaise)}</strong>
            </div>
            <div>
              <span className="summary-grid__label">{t('addCustomer.preview.payable')}</span>
              <strong className="summary-grid__value">{formatRupees(schedule.totalPayablePaise)}</strong>
            </div>
            <div>
              <span className="summary-grid__label">{t('addCustomer.preview.upfront')}</span>
              <strong className="summary-grid__value">{formatRupees(schedule.upfrontPaise)}</strong>
            </div>
          </div>
          <details className="schedule-preview__list" open>
            <summary>{t('addCustomer.preview.instalments', { count: schedule.instalments.length })}</summary>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('emi.table.number')}</th>
                  <th scope="col">{t('emi.table.dueDate')}</th>
                  <th scope="col" className="num">
                    {t('emi.table.amount')}
                  </th>
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
