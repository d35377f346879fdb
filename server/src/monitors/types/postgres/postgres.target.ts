import { databaseSettings, type TargetBuilder } from '../check-target';

export const postgresTarget: TargetBuilder<'postgres'> = (row, base) => ({ ...base, type: 'postgres', ...databaseSettings(row) });
