/**
 * Text every API input must satisfy: no U+0000 (PostgreSQL refuses it in text and jsonb) and no unpaired UTF-16
 * surrogate (it cannot be encoded as UTF-8, so drivers, JSON columns and browsers mangle or refuse it).
 */
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(text: string): boolean {
  return !BAD_TEXT.test(text);
}

/**
 * Where the first bad string (a value or an object key) sits in an input, or null when all text is clean. The path
 * is built only on the way out of a find, so a clean megabyte of JSON costs no allocation per value.
 */
export function findBadText(value: unknown): Array<string | number> | null {
  const path: Array<string | number> = [];
  return hasBadText(value, path) ? path.reverse() : null;
}

function hasBadText(value: unknown, path: Array<string | number>): boolean {
  if (typeof value === 'string') return !isCleanText(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (hasBadText(value[index], path)) return path.push(index) > 0;
    }
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isCleanText(key) || hasBadText((value as Record<string, unknown>)[key], path)) return path.push(key) > 0;
  }
  return false;
}
