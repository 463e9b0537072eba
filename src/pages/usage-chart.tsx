import type { DayUsage } from '../store/usage';
import { bytes, count, shortCount, shortDay } from './format';
import { Table } from './parts';

/** The dashboard's chart covers the last 30 UTC days, today included. */
export const CHART_DAYS = 30;

/** 'YYYY-MM-DD' of the first day the chart shows. */
export function firstChartDay(nowMs: number): string {
  return new Date(nowMs - (CHART_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** Every day of the chart, in order, with zeros where nothing was compressed. */
export function chartDays(usage: DayUsage[], nowMs: number): DayUsage[] {
  const byDay = new Map(usage.map((d) => [d.day, d]));
  return Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = new Date(nowMs - (CHART_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, requests: 0, bytesIn: 0, bytesOut: 0 };
  });
}

// The drawing's own units; CSS scales it to the page. Bars are SVG attributes: the CSP allows no inline style.
const WIDTH = 480;
const HEIGHT = 180;
const LEFT = 40;
const TOP = 10;
const BOTTOM = 22;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
const SLOT = (WIDTH - LEFT) / CHART_DAYS;
/** Coordinates to a tenth of a unit: enough for the eye, and a page a tenth the size. */
const at = (n: number) => Math.round(n * 10) / 10;

/** A bar chart of compressions per day, drawn on the server, and the same numbers as a table. */
export function UsageChart({ days }: { days: DayUsage[] }) {
  const most = Math.max(0, ...days.map((d) => d.requests));
  const peak = Math.max(1, most);
  const y = (n: number) => at(TOP + PLOT_HEIGHT - (n / peak) * PLOT_HEIGHT);
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">{`Compressions per day, ${shortDay(first)} to ${shortDay(last)}: ${count(total)} in all, at most ${count(most)} a day`}</title>
        {[0, peak / 2, peak].map((n) => (
          <line class="grid" x1={LEFT} x2={WIDTH} y1={y(n)} y2={y(n)} />
        ))}
        {[0, peak].map((n) => (
          <text class="axis" x={LEFT - 6} y={y(n) + 4} text-anchor="end">
            {shortCount(n)}
          </text>
        ))}
        {days.map((d, i) => (
          <rect class={d.requests ? 'bar' : 'bar empty'} x={at(LEFT + i * SLOT + SLOT * 0.15)} width={at(SLOT * 0.7)} y={y(d.requests)} height={at(TOP + PLOT_HEIGHT - y(d.requests))}>
            <title>{`${shortDay(d.day)}: ${count(d.requests)} compressions`}</title>
          </rect>
        ))}
        {/* The first and last labels align with the plot's edges, so they never stick out of the drawing. */}
        {(
          [
            [0, 'start', LEFT],
            [10, 'middle', LEFT + 10.5 * SLOT],
            [20, 'middle', LEFT + 20.5 * SLOT],
            [CHART_DAYS - 1, 'end', WIDTH],
          ] as const
        ).map(([i, anchor, x]) => (
          <text class="axis" x={at(x)} y={HEIGHT - 4} text-anchor={anchor}>
            {shortDay(days[i]?.day ?? first)}
          </text>
        ))}
      </svg>
      <details>
        <summary>The numbers, day by day</summary>
        <Table name="usage-table" columns={['Day (UTC)', 'Compressions', 'Sent', 'Returned', 'Saved']}>
          {days.map((d) => (
            <tr>
              <th scope="row">{d.day}</th>
              <td>{count(d.requests)}</td>
              <td>{bytes(d.bytesIn)}</td>
              <td>{bytes(d.bytesOut)}</td>
              <td>{bytes(d.bytesIn - d.bytesOut)}</td>
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}
