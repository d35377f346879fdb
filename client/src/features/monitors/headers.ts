/** One key/value row of the form's header editor. */
export interface HeaderRow {
  name: string;
  value: string;
}

const BLANK: HeaderRow = { name: '', value: '' };

/** HTTP token characters (RFC 9110): what the server accepts as a header name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const isBlank = (row: HeaderRow) => row.name === '' && row.value === '';

/** Keeps exactly one blank row at the end, so there is always a row to type the next header into (spec section 2). */
export function withTrailingBlankRow(rows: readonly HeaderRow[]): HeaderRow[] {
  let end = rows.length;
  while (end > 1 && isBlank(rows[end - 1]) && isBlank(rows[end - 2])) end -= 1;
  const kept = rows.slice(0, end);
  return kept.length === 0 || !isBlank(kept[kept.length - 1]) ? [...kept, { ...BLANK }] : kept;
}

export function updateHeaderRow(rows: readonly HeaderRow[], index: number, patch: Partial<HeaderRow>): HeaderRow[] {
  return withTrailingBlankRow(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
}

export function removeHeaderRow(rows: readonly HeaderRow[], index: number): HeaderRow[] {
  return withTrailingBlankRow(rows.filter((_, at) => at !== index));
}

/** The rows as the request's header object: names trimmed, rows with a blank name dropped (spec section 5). */
export function rowsToHeaders(rows: readonly HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name) headers[name] = row.value;
  }
  return headers;
}

export function headersToRows(headers: Record<string, string> | null | undefined): HeaderRow[] {
  return withTrailingBlankRow(Object.entries(headers ?? {}).map(([name, value]) => ({ name, value: String(value) })));
}

/** Index of the first row whose (trimmed, non-blank) name the server would refuse, or -1. */
export function invalidHeaderRow(rows: readonly HeaderRow[]): number {
  return rows.findIndex((row) => {
    const name = row.name.trim();
    return name !== '' && (!HEADER_NAME.test(name) || /[\r\n]/.test(row.value));
  });
}
