import { connectionStringProblem } from '../../checkers/connection-string-rule';
import type { FieldRules } from '../field-rules';

/** A connection string every check would refuse is refused on save (read by the checker's own parser). */
export const mysqlFieldRules: FieldRules = {
  connectionString: (value) => connectionStringProblem('mysql', value),
};
