import type { OverallStatus } from '@vigil/proto';

/** The banner's colour for each overall status (the rule that decides the status is `overallStatus` in proto). */
export const OVERALL_COLORS: Record<OverallStatus, string> = {
  operational: 'green',
  degraded: 'yellow',
  outage: 'red',
};
