/** A small SVG column chart (one column per point, e.g. per day), with its figures in a hidden table for screen readers. */
import { useId } from 'react';
import { layoutColumns } from './chart-scale.ts';
import './charts.css';

export interface ChartPoint {
  label: string;
  value: number;
}

export interface ColumnChartProps {
  /** Names the chart for assistive technology and heads its table. */
  title: string;
  points: readonly ChartPoint[];
  formatValue: (value: number) => string;
  /** Header of the hidden table's first column. */
  labelHeader: string;
  valueHeader: string;
}

const WIDTH = 320;
const HEIGHT = 150;
const PLOT = { left: 4, right: 4, top: 18, bottom: 20 };

export function ColumnChart({ title, points, formatValue, labelHeader, valueHeader }: ColumnChartProps) {
  const titleId = useId();
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const { max, bars } = layoutColumns(
    points.map((p) => p.value),
    plotWidth,
    plotHeight,
    points.length > 20 ? 2 : 6,
  );
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <figure className="chart">
      <svg className="chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} preserveAspectRatio="xMidYMid meet">
        <title id={titleId}>{title}</title>
        <line className="chart__grid" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={PLOT.top} y2={PLOT.top} />
        <line className="chart__grid" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={PLOT.top + plotHeight / 2} y2={PLOT.top + plotHeight / 2} />
        <text className="chart__axis" x={PLOT.left} y={PLOT.top - 5}>
          {formatValue(max)}
        </text>
        <g transform={`translate(${PLOT.left} ${PLOT.top})`}>
          {bars.map((bar, i) => (
            <rect key={points[i]!.label} className="chart__bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx={1.5}>
              <title>{`${points[i]!.label}: ${formatValue(points[i]!.value)}`}</title>
            </rect>
          ))}
        </g>
        <line className="chart__baseline" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={PLOT.top + plotHeight} y2={PLOT.top + plotHeight} />
        {first ? (
          <text className="chart__axis" x={PLOT.left} y={HEIGHT - 5}>
            {first.label}
          </text>
        ) : null}
        {last && last !== first ? (
          <text className="chart__axis" x={WIDTH - PLOT.right} y={HEIGHT - 5} textAnchor="end">
            {last.label}
          </text>
        ) : null}
      </svg>
      {/* A table is never narrower than its text: the 1 px box around it keeps it from widening the page. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeader}</th>
              <th scope="col">{valueHeader}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td>{formatValue(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
