/** What one read of the report's facts gives: its part of the report and what it warns about. */
export interface Read<T> {
  report: T;
  warnings: string[];
  /** Informational lines for the summary, not warnings. */
  notes?: string[];
}
