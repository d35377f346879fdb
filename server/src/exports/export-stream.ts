import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { ExportFormat } from '@vigil/proto';
import { csvLine, type CsvValue } from './csv';

/** One column of an export: its name in the CSV header and the JSON objects, and how a row gives its value. */
export interface ExportColumn<Row> {
  name: string;
  value: (row: Row) => CsvValue;
}

export interface ExportFile<Row> {
  format: ExportFormat;
  /** ASCII only (ids and dates), so Content-Disposition needs no encoded form. */
  filename: string;
  /** Said in `X-Vigil-Export-Tier` and in the JSON document. */
  tier: string;
  /** The JSON document's fields before its `rows` (what was exported, the range, the tier). */
  meta: Record<string, unknown>;
  columns: ExportColumn<Row>[];
  /** Keyset pages read one after the other: only one page is in memory at a time. */
  pages: AsyncIterable<Row[]>;
}

const logger = new Logger('DataExport');

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
};

/**
 * Streams an export as it is read: headers first, then each page as it arrives, waiting for the socket to drain
 * between pages, so a year of checks never sits in memory. A caller that goes away stops the reading. A failure after
 * the first bytes cannot change the status any more: the connection is cut instead, so the download shows as broken
 * rather than complete.
 */
export async function streamExport<Row>(res: Response, file: ExportFile<Row>): Promise<number> {
  // The first page is read before anything is sent, so a failing database still answers with an error status.
  const pages = file.pages[Symbol.asyncIterator]();
  let next = await pages.next();
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPES[file.format]);
  res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Vigil-Export-Tier', file.tier);
  let closed = false;
  res.on('close', () => (closed = true));
  const write = async (chunk: string) => {
    if (!res.write(chunk) && !closed) await once(res, 'drain').catch(() => undefined);
  };
  const names = file.columns.map((c) => c.name);
  let count = 0;
  try {
    if (file.format === 'csv') await write(csvLine(names));
    else await write(`${JSON.stringify({ ...file.meta, tier: file.tier, columns: names }).slice(0, -1)},"rows":[`);
    while (!next.done && !closed) {
      const page = next.value;
      const text =
        file.format === 'csv'
          ? page.map((row) => csvLine(file.columns.map((c) => c.value(row)))).join('')
          : page.map((row, i) => `${count + i ? ',' : ''}\n${JSON.stringify(jsonRow(file.columns, row))}`).join('');
      count += page.length;
      await write(text);
      if (!closed) next = await pages.next();
    }
    if (closed) {
      await pages.return?.(undefined);
      return count;
    }
    if (file.format === 'json') await write(`\n]}\n`);
    res.end();
  } catch (error) {
    // The status is sent: the error filter cannot answer any more, so it is logged here and the connection cut.
    logger.error(`Export ${file.filename} cut after ${count} rows: ${(error as Error).message}`);
    res.destroy();
  }
  return count;
}

function jsonRow<Row>(columns: ExportColumn<Row>[], row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = column.value(row);
    out[column.name] = value === undefined ? null : value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** Reads keyset pages until one comes back short: `read(after)` answers the rows after the cursor. */
export async function* keysetPages<Row, Key>(
  read: (after: Key) => Promise<Row[]>,
  first: Key,
  keyOf: (row: Row) => Key,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after = first;
  for (;;) {
    const page = await read(after);
    if (page.length) yield page;
    if (page.length < pageSize) return;
    after = keyOf(page[page.length - 1]);
  }
}
