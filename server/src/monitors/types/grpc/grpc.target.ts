import { ignoreTls, setting, type TargetBuilder } from '../check-target';

export const grpcTarget: TargetBuilder<'grpc'> = (row, base) => ({
  ...base,
  type: 'grpc',
  hostname: row.hostname ?? '',
  port: row.port ?? 0,
  grpcService: setting(row, 'grpcService', ''),
  tls: setting(row, 'tls', false),
  ignoreTls: ignoreTls(row),
});
