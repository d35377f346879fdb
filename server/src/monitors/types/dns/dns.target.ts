import { MONITOR_TYPE_DEFAULTS as D, type DnsRecordType } from '@vigil/proto';
import { setting, type TargetBuilder } from '../check-target';

export const dnsTarget: TargetBuilder<'dns'> = (row, base) => ({
  ...base,
  type: 'dns',
  hostname: row.hostname ?? '',
  dnsRecordType: setting<DnsRecordType>(row, 'dnsRecordType', D.dnsRecordType),
  dnsServer: setting<string | null>(row, 'dnsServer', null),
});
