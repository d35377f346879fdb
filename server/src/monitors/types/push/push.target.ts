import type { TargetBuilder } from '../check-target';

/** A push monitor's scheduled check judges the time since its last push against its rhythm. */
export const pushTarget: TargetBuilder<'push'> = (row, base) => ({
  ...base,
  type: 'push',
  interval: row.interval_s,
  retryInterval: row.retry_interval_s,
});
