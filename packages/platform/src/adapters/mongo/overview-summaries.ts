import type { Collection } from 'mongodb';
import type { Mode } from '@switch/core/contracts/bancos';
import { merchantHourKey } from '@switch/core/overview-hours';
import { type HourSummary, merchantMonthKey, monthsBetween } from '@switch/core/overview-summary';
import type { OverviewSummaryTable } from '../../ports/overview-summaries';
import { createIndexesOneByOne } from './conditional';
import { insertNew } from './inserts';

/**
 * One summary: `_id` = `merchantHourKey`, `_merchantMonth` = `merchantMonthKey`, `openCount` its
 * compare-and-set; the groups and ids as JSON text, read whole and looked into by no query (FerretDB
 * decodes a stored document's every value at each read: see records.ts).
 */
interface SummaryRow {
  _id: string;
  _merchantMonth: string;
  merchantId: string;
  mode: Mode;
  hour: string;
  final: string;
  open: string;
  openCount: number;
}

/**
 * The overview's hour summaries in MongoDB (collection `overview_hours`): read by one equality on
 * `_merchantMonth` per month spanned (FerretDB 1.24 evaluates that equality in PostgreSQL from the
 * index and the hour range in Go, over one month's summaries at most: 744), written by an insert only
 * one writer can win and then only in place of a summary with more open ids, conditioned on the count
 * read (an equality on the document's `_id` and `openCount`, atomic on one document).
 */
export class MongoOverviewSummaries implements OverviewSummaryTable {
  constructor(private readonly rows: Collection<SummaryRow>) {}

  async ensureIndexes(): Promise<void> {
    await createIndexesOneByOne(this.rows, [{ key: { _merchantMonth: 1, hour: 1 } }]);
  }

  async between(merchantId: string, mode: Mode, from: string, to: string): Promise<HourSummary[]> {
    const rows = await this.read(merchantId, mode, from, to, { _id: 0, _merchantMonth: 0, openCount: 0 });
    return rows.map(({ merchantId, mode, hour, final, open }) => ({
      merchantId,
      mode,
      hour,
      final: JSON.parse(final),
      open: JSON.parse(open),
    }));
  }

  async openBetween(merchantId: string, mode: Mode, from: string, to: string): Promise<Pick<HourSummary, 'hour' | 'open'>[]> {
    const rows = await this.read(merchantId, mode, from, to, { _id: 0, _merchantMonth: 0, final: 0 });
    return rows.map(({ hour, open }) => ({ hour, open: JSON.parse(open) }));
  }

  async put(summary: HourSummary): Promise<boolean> {
    const _id = merchantHourKey(summary.merchantId, summary.mode, summary.hour);
    const row: SummaryRow = {
      _id,
      _merchantMonth: merchantMonthKey(summary.merchantId, summary.mode, summary.hour.slice(0, 7)),
      merchantId: summary.merchantId,
      mode: summary.mode,
      hour: summary.hour,
      final: JSON.stringify(summary.final),
      open: JSON.stringify(summary.open),
      openCount: summary.open.length,
    };
    // A lost race means another writer stored its fold first: decide again on what it stored.
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await this.rows.findOne({ _id }, { projection: { openCount: 1 } });
      if (!stored) {
        if (await insertNew(this.rows, row)) return true;
        continue;
      }
      if (stored.openCount <= row.openCount) return false;
      const { _id: _, ...rest } = row;
      const { matchedCount } = await this.rows.replaceOne({ _id, openCount: stored.openCount }, rest);
      if (matchedCount === 1) return true;
    }
    return false;
  }

  private async read(merchantId: string, mode: Mode, from: string, to: string, projection: Record<string, 0>): Promise<SummaryRow[]> {
    const months = await Promise.all(
      monthsBetween(from, to).map((month) =>
        this.rows
          .find({ _merchantMonth: merchantMonthKey(merchantId, mode, month), hour: { $gte: from, $lte: to } }, { projection })
          .toArray(),
      ),
    );
    return months.flat().sort((a, b) => (a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0));
  }
}
