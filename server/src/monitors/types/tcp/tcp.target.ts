import type { TargetBuilder } from '../check-target';

export const tcpTarget: TargetBuilder<'tcp'> = (row, base) => ({ ...base, type: 'tcp', hostname: row.hostname ?? '', port: row.port ?? 0 });
