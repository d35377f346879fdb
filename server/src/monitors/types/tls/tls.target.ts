import { MONITOR_TYPE_DEFAULTS as D } from '@vigil/proto';
import { ignoreTls, type TargetBuilder } from '../check-target';

export const tlsTarget: TargetBuilder<'tls'> = (row, base) => ({
  ...base,
  type: 'tls',
  hostname: row.hostname ?? '',
  port: row.port ?? D.tlsPort,
  ignoreTls: ignoreTls(row),
});
