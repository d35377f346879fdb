import { MONITOR_TYPE_DEFAULTS as D } from '@vigil/proto';
import { ignoreTls, setting, type TargetBuilder } from '../check-target';

export const httpTarget: TargetBuilder<'http'> = (row, base) => ({
  ...base,
  type: 'http',
  url: row.url,
  method: row.method,
  headers: row.headers ?? {},
  body: row.body,
  expectedStatus: row.expected_status,
  ignoreTls: ignoreTls(row),
  maxRedirects: setting(row, 'maxRedirects', D.maxRedirects),
});
