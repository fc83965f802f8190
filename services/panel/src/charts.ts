import { escapeHtml } from './format';

/**
 * Charts drawn on the server as SVG: readable without JavaScript, nothing fetched from elsewhere,
 * allowed by the panel's content security policy (presentation attributes, no inline style). Each
 * chart has a title and a description for screen readers; the figures are also in a table beside it.
 */

export interface Bar {
  label: string;
  /** The bar's values, one per series (stacked side by side). */
  values: number[];
}

const SERIES_CLASSES = ['series-a', 'series-b'];

/** Vertical bars per label (a day), one bar per series; the tallest bar fills the height. */
export function barChart(bars: readonly Bar[], options: { title: string; description: string; width?: number; height?: number }): string {
  const width = options.width ?? 640;
  const height = options.height ?? 180;
  const bottom = 20;
  const series = Math.max(1, ...bars.map((b) => b.values.length));
  const max = Math.max(0, ...bars.flatMap((b) => b.values));
  const slot = bars.length === 0 ? width : width / bars.length;
  const barWidth = Math.max(1, (slot * 0.8) / series);
  const plot = height - bottom;
  const rects: string[] = [];
  bars.forEach((bar, i) => {
    bar.values.forEach((value, s) => {
      const h = max === 0 ? 0 : Math.round((value / max) * (plot - 4));
      const x = Math.round(i * slot + slot * 0.1 + s * barWidth);
      rects.push(
        `<rect class="${SERIES_CLASSES[s % SERIES_CLASSES.length]}" x="${x}" y="${plot - h}" width="${Math.floor(barWidth)}" height="${h}"><title>${escapeHtml(bar.label)}: ${escapeHtml(String(value))}</title></rect>`,
      );
    });
    // A label under every bar when few, else under every seventh.
    if (bars.length <= 8 || i % 7 === bars.length % 7 || i === bars.length - 1)
      rects.push(
        `<text x="${i === bars.length - 1 ? width : Math.round(i * slot + slot / 2)}" y="${height - 5}" text-anchor="${i === bars.length - 1 ? 'end' : 'middle'}" class="axis">${escapeHtml(bar.label)}</text>`,
      );
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="c-t c-d" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg"><title id="c-t">${escapeHtml(options.title)}</title><desc id="c-d">${escapeHtml(options.description)}</desc><line x1="0" y1="${plot}" x2="${width}" y2="${plot}" class="baseline"/>${rects.join('')}</svg>`;
}

/** Horizontal bars of a share (0 to 1), one per row, with the percentage written at the end. */
export function shareBars(rows: readonly { label: string; share: number | null }[], options: { title: string }): string {
  const width = 320;
  const row = 22;
  const height = Math.max(row, rows.length * row);
  const body = rows
    .map((r, i) => {
      const share = r.share ?? 0;
      const y = i * row;
      const percent = r.share === null ? '—' : `${Math.round(share * 1000) / 10}%`;
      return `<rect class="track" x="110" y="${y + 4}" width="160" height="14"/><rect class="${share >= 0.9 ? 'good' : share >= 0.7 ? 'fair' : 'poor'}" x="110" y="${y + 4}" width="${Math.round(160 * share)}" height="14"/><text x="0" y="${y + 16}" class="axis">${escapeHtml(r.label)}</text><text x="${width}" y="${y + 16}" text-anchor="end" class="axis">${percent}</text>`;
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(options.title)}</title>${body}</svg>`;
}
