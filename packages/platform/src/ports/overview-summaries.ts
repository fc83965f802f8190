import type { Mode } from '@switch/core/contracts/bancos';
import type { HourSummary } from '@switch/core/overview-summary';

/**
 * The overview's hour summaries (decision 0215): each complete hour of a merchant's operations in one
 * mode, folded once by the panel's background fold and read by every panel replica. Written by the
 * fold only; a summary never loses an operation (each is in `final` or in `open`), so any stored one
 * is right, and the fewer its open ids the cheaper a view.
 */
export interface OverviewSummaries {
  overviewSummaries: OverviewSummaryTable;
}

export interface OverviewSummaryTable {
  /**
   * The summaries of one merchant and mode whose hour is in [`from`, `to`] (`YYYY-MM-DDTHH`), oldest
   * first: one equality per month spanned (`merchantMonthKey`), served by an index.
   */
  between(merchantId: string, mode: Mode, from: string, to: string): Promise<HourSummary[]>;
  /** The same summaries without their groups: what the fold needs to know (which hours, which ids still open). */
  openBetween(merchantId: string, mode: Mode, from: string, to: string): Promise<Pick<HourSummary, 'hour' | 'open'>[]>;
  /**
   * Stores `summary` if its hour has none, or in place of one with more open ids (an operation
   * settled since); else leaves the stored one. Idempotent: writers folding the same hour together,
   * or a fold retried, leave one summary. True when written.
   */
  put(summary: HourSummary): Promise<boolean>;
}
