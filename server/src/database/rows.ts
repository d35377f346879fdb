/** TypeORM answers UPDATE and DELETE … RETURNING with `[rows, count]` and other statements with the rows. */
export function returnedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

export function firstRow<T>(result: unknown): T | null {
  return returnedRows<T>(result)[0] ?? null;
}

/** Rows a DELETE … RETURNING removed. */
export function affectedCount(result: unknown): number {
  return Array.isArray(result) && Array.isArray(result[0]) ? Number(result[1]) : returnedRows(result).length;
}
