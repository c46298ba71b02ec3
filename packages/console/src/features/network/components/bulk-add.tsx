/**
 * Bulk add (the bulk_retailer switch): a CSV file read on the phone, every row checked before anything is
 * sent, then one request per row (each row is added whole or not at all), with a progress bar and each row's
 * outcome. Rows already added are not sent again when the same file is run a second time.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BULK_COLUMNS, readBulkFile, type BulkRow } from '../hooks/bulk-csv.ts';
import { useAddMemberQuietlyMutation } from '../api/network-api.ts';
import { isApiFailure } from '../../../shared/api/api-failure.ts';

/** A member list is text; a larger file is not one. */
const BULK_MAX_BYTES = 512 * 1024;

type Outcome = { line: number; name: string; ok: boolean; text: string };

export function BulkAdd() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<BulkRow[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [running, setRunning] = useState(false);
  const added = useRef(new Set<string>());
  const [addOne] = useAddMemberQuietlyMutation();
  const ready = rows.filter((r) => r.body !== null);

  async function pick(file: File | undefined) {
    setOutcomes([]);
    setRows([]);
    setProblem(null);
    if (!file) return;
    if (file.size > BULK_MAX_BYTES) return setProblem('network.bulk.tooLarge');
    const text = await file.text();
    // A CSV is text: a NUL byte means a spreadsheet or an image renamed to .csv.
    if (text.includes('\u0000')) return setProblem('network.bulk.notCsv');
    const read = readBulkFile(text);
    setProblem(read.problem);
    setRows(read.rows);
  }

  async function run() {
    setRunning(true);
    const done: Outcome[] = rows.filter((r) => r.body === null).map((r) => ({ line: r.line, name: '', ok: false, text: t(r.problem!) }));
    setOutcomes([...done]);
    for (const row of ready) {
      const body = row.body!;
      const name = `${body.first_name} ${body.last_name}`;
      if (added.current.has(body.mobile)) {
        done.push({ line: row.line, name, ok: true, text: t('network.bulk.alreadyAdded') });
      } else {
        try {
          await addOne({ ...body, mobile: `+91${body.mobile}` }).unwrap();
          added.current.add(body.mobile);
          done.push({ line: row.line, name, ok: true, text: t('network.bulk.added') });
        } catch (error) {
          done.push({ line: row.line, name, ok: false, text: isApiFailure(error) ? error.message : t('errors.generic') });
        }
      }
      setOutcomes([...done].sort((a, b) => a.line - b.line));
    }
    setRunning(false);
  }

  const finished = outcomes.length;
  const total = rows.length;
  const failed = outcomes.filter((o) => !o.ok).length;
  return (
    <section className="card stack" aria-labelledby="bulk-title">
      <h2 id="bulk-title">{t('network.bulk.title')}</h2>
      <p className="muted">{t('network.bulk.help', { columns: BULK_COLUMNS.join(', ') })}</p>
      <label className="field">
        <span className="field__label">{t('network.bulk.file')}</span>
        <input type="file" accept=".csv,text/csv" disabled={running} onChange={(e) => void pick(e.target.files?.[0])} />
      </label>
      {problem ? <p className="notice notice--danger" role="alert">{t(problem)}</p> : null}
      {total > 0 && !problem ? (
        <>
          <p>{t('network.bulk.checked', { ready: ready.length, total })}</p>
          <button type="button" className="button button--primary" disabled={running || ready.length === 0} onClick={() => void run()}>
            {t('network.bulk.start', { count: ready.length })}
          </button>
        </>
      ) : null}
      {finished > 0 ? (
        <>
          <div
            className="progress"
            role="progressbar"
            aria-label={t('network.bulk.progress')}
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={finished}
            aria-valuetext={t('bulkLock.progressText', { done: finished, total })}
          >
            <div className="progress__fill" style={{ width: `${Math.round((finished / Math.max(total, 1)) * 100)}%` }} />
          </div>
          <p aria-live="polite">
            <strong>{t('bulkLock.progressText', { done: finished, total })}</strong>
            {failed > 0 ? <span className="text-danger">{` · ${t('network.bulk.failed', { count: failed })}`}</span> : null}
          </p>
          <ul className="bulk-results">
            {outcomes.map((o) => (
              <li key={o.line} className={o.ok ? '' : 'text-danger'}>
                {t('network.bulk.line', { line: o.line })}
                {o.name ? ` · ${o.name}` : ''} · {o.text}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
