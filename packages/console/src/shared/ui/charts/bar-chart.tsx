/** A small SVG horizontal bar chart: one labelled row per item with its value at the end. */
import { useId } from 'react';
import { barLengths } from './chart-scale.ts';
import './charts.css';

export interface BarItem {
  key: string;
  label: string;
  value: number;
  tone?: 'neutral' | 'success' | 'warning' | 'danger' | 'info';
}

export interface BarChartProps {
  title: string;
  items: readonly BarItem[];
  formatValue: (value: number) => string;
}

const WIDTH = 320;
const ROW = 26;
const LABEL_WIDTH = 118;
const VALUE_WIDTH = 44;

export function BarChart({ title, items, formatValue }: BarChartProps) {
  const titleId = useId();
  const track = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const lengths = barLengths(
    items.map((item) => item.value),
    track,
  );
  const height = items.length * ROW;
  return (
    <figure className="chart">
      <svg className="chart__svg" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>{`${title}: ${items.map((item) => `${item.label} ${formatValue(item.value)}`).join(', ')}`}</title>
        {items.map((item, i) => {
          const y = i * ROW;
          return (
            <g key={item.key} transform={`translate(0 ${y})`}>
              <text className="chart__label" x={0} y={ROW / 2 + 4}>
                {item.label}
              </text>
              <rect className="chart__track" x={LABEL_WIDTH} y={6} width={track} height={ROW - 12} rx={3} />
              <rect className={`chart__bar chart__bar--${item.tone ?? 'info'}`} x={LABEL_WIDTH} y={6} width={lengths[i]} height={ROW - 12} rx={3} />
              <text className="chart__value" x={WIDTH} y={ROW / 2 + 4} textAnchor="end">
                {formatValue(item.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
