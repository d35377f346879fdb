import { databaseSettings, type TargetBuilder } from '../check-target';

export const redisTarget: TargetBuilder<'redis'> = (row, base) => ({ ...base, type: 'redis', ...databaseSettings(row) });
