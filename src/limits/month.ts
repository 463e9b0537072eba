/** The calendar month of the monthly quota: it resets at 00:00 UTC on the 1st. */
export interface MonthWindow {
  /** 'YYYY-MM', the key of the usage row. */
  key: string;
  startMs: number;
  resetMs: number;
}

export function monthWindow(nowMs: number): MonthWindow {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    key: `${year}-${String(month + 1).padStart(2, '0')}`,
    startMs: Date.UTC(year, month, 1),
    resetMs: Date.UTC(year, month + 1, 1),
  };
}
