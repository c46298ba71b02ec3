/** Headline figures side by side: a small label over each value; a value can be flagged as bad news. */
import type { ReactNode } from 'react';

export interface SummaryItem {
  label: string;
  value: ReactNode;
  /** Shows the value in the danger colour. */
  danger?: boolean;
}

export interface SummaryGridProps {
  items: readonly SummaryItem[];
  /** Four columns instead of two. */
  four?: boolean;
  /** Drawn as a card of its own. */
  card?: boolean;
  /** Renders a labelled section instead of a plain div. */
  label?: string;
}

export function SummaryGrid({ items, four = false, card = false, label }: SummaryGridProps) {
  const cells = items.map((item) => (
    <div key={item.label}>
      <span className="summary-grid__label">{item.label}</span>
      <strong className={`summary-grid__value${item.danger ? ' text-danger' : ''}`}>{item.value}</strong>
    </div>
  ));
  const classes = `${card ? 'card ' : ''}summary-grid${four ? ' summary-grid--four' : ''}`;
  return label !== undefined ? (
    <section className={classes} aria-label={label}>
      {cells}
    </section>
  ) : (
    <div className={classes}>{cells}</div>
  );
}
