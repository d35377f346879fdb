import { MONITOR_TYPE_LIMITS as L, type MessageCode } from '@vigil/proto';
import { isMask } from '../../common/secret-values';
import { CONNECTION_SCHEMES, ConnectionStringError, parseConnectionString, type DatabaseType } from './database-connection';

/**
 * Why a connection string would be refused by every check of its type: the checkers' own parser decides, so what is
 * saved is what runs. Null when it is usable (or is the mask read back: the stored one is kept).
 */
export function connectionStringProblem(type: DatabaseType, value: unknown): MessageCode | null {
  if (typeof value !== 'string' || value.length > L.connectionStringMax || /\s/.test(value)) return 'monitors.connectionStringInvalid';
  if (isMask(value.trim())) return null;
  if (!CONNECTION_SCHEMES[type].some((scheme) => value.toLowerCase().startsWith(`${scheme}//`))) return 'monitors.connectionStringInvalid';
  try {
    parseConnectionString(type, value);
    return null;
  } catch (error) {
    if (!(error instanceof ConnectionStringError)) throw error;
    return error.reason === 'setting' ? 'monitors.connectionStringUnusable' : 'monitors.connectionStringInvalid';
  }
}
