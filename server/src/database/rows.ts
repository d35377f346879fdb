import type { EntityManager } from 'typeorm';

/** What runs a statement: the DataSource, or the EntityManager of a transaction in progress. */
export type Sql = Pick<EntityManager, 'query'>;

/** TypeORM answers UPDATE and DELETE … RETURNING with `[rows, count]` and other statements with the rows. */
function returnedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** Rows an UPDATE or DELETE touched (TypeORM's count), or else the rows returned. */
function affectedCount(result: unknown): number {
  return Array.isArray(result) && Array.isArray(result[0]) ? Number(result[1]) : returnedRows(result).length;
}

/**
 * Runs one statement and returns its rows (of a SELECT, or of any statement's RETURNING clause) as `Row`, which the
 * caller declares to match the statement's column list as the driver parses it: bigint and numeric arrive as text,
 * timestamps as Date, json as parsed values.
 */
export async function queryRows<Row extends object>(db: Sql, sql: string, params: unknown[] = []): Promise<Row[]> {
  return returnedRows<Row>(await db.query<unknown>(sql, params));
}

/** The first row `queryRows` would return, or null. */
export async function queryRow<Row extends object>(db: Sql, sql: string, params: unknown[] = []): Promise<Row | null> {
  return (await queryRows<Row>(db, sql, params))[0] ?? null;
}

/** Runs a statement for its effect. Returns the rows an UPDATE or DELETE touched, or else the rows it returned. */
export async function execute(db: Sql, sql: string, params: unknown[] = []): Promise<number> {
  return affectedCount(await db.query<unknown>(sql, params));
}
