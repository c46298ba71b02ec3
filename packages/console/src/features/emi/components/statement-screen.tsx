/**
 * A loan's statement, reached from its EMI plan: every due, penalty, waiver, payment, reversal and change in date
 * order with the balance after each (the last balance is what the customer owes), what has been paid by part,
 * and the changes made to the schedule (who, when, before and after, why).
 */
import { useParams, Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { InstalmentChange, Statement } from '@kisht/contract/emi';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { hasLoan } from '@kisht/domain/plans';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { SummaryGrid, type SummaryItem } from '../../../shared/ui/summary-grid.tsx';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { customerPath, parseCustomerId } from '../../../shared/routes.ts';
import { useGetInstalmentChangesQuery, useGetStatementQuery } from '../api/ledger-api.ts';
import { changedFields, partLabels, signedRupees, statementLineWords, type ChangedField } from '../hooks/ledger-words.ts';
import './emi.css';

export function StatementScreen() {
  const { t } = useTranslation();
  const customerId = parseCustomerId(useParams().customer_id);
  const skip = customerId === null;
  const { data: profile, isError: profileFailed, error: profileError, refetch: refetchProfile } = useGetCustomerProfileQuery(customerId ?? 0, { skip });
  // A phone on a plan alone has no loan to state (the server would refuse): asked once the profile says there is one.
  const noLoan = !profile || !hasLoan(profile);
  const statement = useGetStatementQuery(customerId ?? 0, { skip: skip || noLoan });
  const changes = useGetInstalmentChangesQuery(customerId ?? 0, { skip: skip || noLoan });
  if (customerId === null) return <NotFoundScreen />;

  const name = profile ? `${profile.first_name} ${profile.last_name}`.trim() : '';
  return (
    <Page title={t('ledger.statement.title')}>
      {profile ? (
        <p className="page-subtitle">
          <Link to={customerPath('customer_details', customerId)}>{name}</Link> · {profile.mobile}
        </p>
      ) : null}
      {!profile ? (
        profileFailed ? (
          <LoadErrorCard message={isOffline(profileError) ? t('ledger.offline') : t('customerDetails.loadError')} onRetry={() => void refetchProfile()} />
        ) : (
          <SkeletonList rows={4} label={t('common.loading')} />
        )
      ) : null}
      {profile && !hasLoan(profile) ? <p className="card empty-state">{t('planPhone.noLoan')}</p> : null}

      {!noLoan ? (
        <section className="card" aria-labelledby="statement-title">
          <h2 id="statement-title">{t('ledger.statement.heading')}</h2>
          {statement.data ? (
            <StatementBody statement={statement.data} />
          ) : statement.isError ? (
            <LoadErrorCard message={isOffline(statement.error) ? t('ledger.offline') : t('ledger.statement.loadError')} onRetry={() => void statement.refetch()} />
          ) : (
            <SkeletonList rows={4} label={t('common.loading')} />
          )}
        </section>
      ) : null}

      {!noLoan ? (
        <section className="card" aria-labelledby="changes-title">
          <h2 id="changes-title">{t('ledger.changes.title')}</h2>
          {changes.data ? (
            changes.data.length === 0 ? (
              <p className="muted small">{t('ledger.changes.none')}</p>
            ) : (
              <ul className="ledger-changes">
                {changes.data.map((change) => (
                  <ChangeItem key={change.id} change={change} />
                ))}
              </ul>
            )
          ) : changes.isError ? (
            <LoadErrorCard message={isOffline(changes.error) ? t('ledger.offline') : t('ledger.changes.loadError')} onRetry={() => void changes.refetch()} />
          ) : (
            <SkeletonList rows={2} label={t('common.loading')} />
          )}
        </section>
      ) : null}

      <Link className="button button--secondary button--block" to={customerPath('emi_details', customerId)}>
        {t('emiPlan.title')}
      </Link>
    </Page>
  );
}

function StatementBody({ statement }: { statement: Statement }) {
  const { t } = useTranslation();
  const tr = (key: string, vars?: Record<string, string | number>) => t(key, vars);
  const paid = statement.paid_parts;
  const summary: SummaryItem[] = [
    { label: t('ledger.statement.paidPrincipal'), value: formatRupees(paid.principal_paise) },
    { label: t('ledger.statement.paidInterest'), value: formatRupees(paid.interest_paise) },
    ...(paid.tax_paise !== 0 ? [{ label: t('ledger.statement.paidTax'), value: formatRupees(paid.tax_paise) }] : []),
    ...(paid.penalty_paise !== 0 ? [{ label: t('ledger.statement.paidPenalty'), value: formatRupees(paid.penalty_paise) }] : []),
  ];
  if (statement.lines.length === 0) return <p className="empty-state">{t('ledger.statement.empty')}</p>;
  return (
    <>
      <SummaryGrid label={t('ledger.statement.paidTitle')} items={summary} />
      <div className="stack-table">
        <table className="data-table data-table--stack ledger-table" aria-labelledby="statement-title">
          <thead>
            <tr>
              <th scope="col">{t('ledger.statement.date')}</th>
              <th scope="col">{t('ledger.statement.entry')}</th>
              <th scope="col" className="num">
                {t('ledger.statement.change')}
              </th>
              <th scope="col" className="num">
                {t('ledger.statement.balance')}
              </th>
            </tr>
          </thead>
          <tbody>
            {statement.lines.map((line, index) => {
              const words = statementLineWords(line, tr);
              return (
                // Lines have no id of their own; their order is the statement's and never changes within one answer.
                <tr key={index} className={`ledger-line ledger-line--${line.kind}`}>
                  <td className="cell-date muted small">{formatDate(line.date)}</td>
                  <td className="ledger-entry">
                    <strong>{words.kind}</strong>
                    {words.about ? <span className="ledger-entry__about">{words.about}</span> : null}
                    {words.reason ? <span className="ledger-entry__note">{words.reason}</span> : null}
                    {line.parts ? <span className="ledger-entry__note">{partLabels(line.parts, tr).join(' · ')}</span> : null}
                  </td>
                  <td className="num ledger-delta">{signedRupees(line.delta_paise)}</td>
                  <td className="num ledger-balance">
                    <span className="stack-only muted small">{t('ledger.statement.balance')} </span>
                    <span className="nowrap">{formatRupees(line.balance_after_paise)}</span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="ledger-closing">
        <span>{t('ledger.statement.closing')}</span> <strong className="nowrap">{formatRupees(statement.balance_paise)}</strong>
      </p>
    </>
  );
}

const FIELD_LABEL_KEYS: Record<ChangedField, string> = {
  dueDate: 'emi.table.dueDate',
  amount: 'emi.table.amount',
  penalty: 'ledger.changes.penalty',
};

function ChangeItem({ change }: { change: InstalmentChange }) {
  const { t } = useTranslation();
  const fields = changedFields(change);
  return (
    <li className="ledger-change">
      <strong>{t(`ledger.changes.kind.${change.kind}`, { number: change.instalment_number })}</strong>
      <span className="muted small">{t('ledger.changes.by', { name: change.by, date: formatDateTime(change.at) })}</span>
      {fields.length > 0 ? (
        <Facts
          rows={fields.map((f) => [
            t(FIELD_LABEL_KEYS[f.field]),
            // A date or an amount is never broken across lines; the arrow between them may be.
            f.before === null ? (
              <span className="nowrap">{f.after}</span>
            ) : (
              <>
                <span className="nowrap">{f.before}</span> → <span className="nowrap">{f.after}</span>
              </>
            ),
          ])}
        />
      ) : null}
      {change.reason ? <p className="small ledger-change__reason">{t('ledger.changes.reason', { reason: change.reason })}</p> : null}
    </li>
  );
}
