import { isAllowedRedisCommand } from '@vigil/proto';
import { connectionStringProblem } from '../../checkers/connection-string-rule';
import type { FieldRules } from '../field-rules';

/** The connection string as the checker reads it, and a command among the bounded reads (the checker refuses others). */
export const redisFieldRules: FieldRules = {
  connectionString: (value) => connectionStringProblem('redis', value),
  query: (value) => (typeof value === 'string' && !isAllowedRedisCommand(value) ? 'monitors.redisCommandNotAllowed' : null),
};
