import { useCallback, useState } from 'react';

export type MonitorView = 'grid' | 'list';

/** Where the list remembers the chosen layout between visits. */
export const MONITOR_VIEW_STORAGE_KEY = 'monitors.view';

function readView(): MonitorView {
  try {
    return localStorage.getItem(MONITOR_VIEW_STORAGE_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}

/** The monitor list's grid/list choice, kept in local storage (spec section 2: the toggle is remembered). */
export function useMonitorView(): [MonitorView, (view: MonitorView) => void] {
  const [view, setView] = useState<MonitorView>(readView);
  const change = useCallback((next: MonitorView) => {
    setView(next);
    try {
      localStorage.setItem(MONITOR_VIEW_STORAGE_KEY, next);
    } catch {
      // Storage may be full or disabled (private mode); the choice then lasts for this visit only.
    }
  }, []);
  return [view, change];
}
