import { useCallback, useState } from 'react';

/** Where the list remembers whether it shows groups with their members nested. */
export const GROUPED_VIEW_STORAGE_KEY = 'monitors.grouped';

function readGrouped(): boolean {
  try {
    return localStorage.getItem(GROUPED_VIEW_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The monitor list's "show groups" choice, kept in local storage like the layout. */
export function useGroupedView(): [boolean, (grouped: boolean) => void] {
  const [grouped, setGrouped] = useState(readGrouped);
  const change = useCallback((next: boolean) => {
    setGrouped(next);
    try {
      localStorage.setItem(GROUPED_VIEW_STORAGE_KEY, String(next));
    } catch {
      // Storage may be full or disabled; the choice then lasts for this visit only.
    }
  }, []);
  return [grouped, change];
}
