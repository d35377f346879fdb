import { MONITOR_TYPE_DEFAULTS as D } from '@vigil/proto';
import { setting, type TargetBuilder } from '../check-target';

export const pingTarget: TargetBuilder<'ping'> = (row, base) => ({
  ...base,
  type: 'ping',
  hostname: row.hostname ?? '',
  packetCount: setting(row, 'packetCount', D.packetCount),
});
