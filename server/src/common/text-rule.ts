/**
 * Text every API input must satisfy: no U+0000 (PostgreSQL refuses it in text and jsonb) and no unpaired UTF-16
 * surrogate (it cannot be encoded as UTF-8, so drivers, JSON columns and browsers mangle or refuse it).
 */
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(text: string): boolean {
  return !BAD_TEXT.test(text);
}

/** Where the first bad string (a value or an object key) sits in an input, or null when all text is clean. */
export function findBadText(value: unknown, path: Array<string | number> = []): Array<string | number> | null {
  if (typeof value === 'string') return isCleanText(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findBadText(value[index], [...path, index]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!isCleanText(key)) return [...path, key];
    const found = findBadText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}
