import { databaseSettings, type TargetBuilder } from '../check-target';

export const mysqlTarget: TargetBuilder<'mysql'> = (row, base) => ({ ...base, type: 'mysql', ...databaseSettings(row) });
