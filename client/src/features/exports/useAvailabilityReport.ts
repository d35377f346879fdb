import { EXPORT_LIMITS, type AvailabilityRow } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { exportsApi } from './api';

export type ReportState =
  { status: 'loading'; read: number } | { status: 'ready'; rows: AvailabilityRow[] } | { status: 'error'; error: unknown };

const STARTING: ReportState = { status: 'loading', read: 0 };

/**
 * Reads one month's report a page of 1,000 monitors at a time, telling how many it has read; a new month (or a retry)
 * or leaving the screen stops the reads of the old one. What was read for an older request is never shown for a newer.
 */
export function useAvailabilityReport(month: string, attempt: number): ReportState {
  const key = `${month}|${attempt}`;
  const [held, setHeld] = useState<{ key: string; state: ReportState }>({ key, state: STARTING });

  useEffect(() => {
    const controller = new AbortController();
    const set = (state: ReportState) => setHeld({ key, state });
    void (async () => {
      const rows: AvailabilityRow[] = [];
      try {
        for (let after: number | null = 0; after !== null;) {
          const page = await exportsApi.availabilityPage(month, after, EXPORT_LIMITS.reportPageMax, controller.signal);
          rows.push(...page.monitors);
          after = page.next_after;
          if (after !== null) set({ status: 'loading', read: rows.length });
        }
        set({ status: 'ready', rows });
      } catch (error) {
        if (!controller.signal.aborted) set({ status: 'error', error });
      }
    })();
    return () => controller.abort();
  }, [key, month]);

  return held.key === key ? held.state : STARTING;
}
