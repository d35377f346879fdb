const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export interface JsonShapeLimits {
  /** Nesting of arrays/objects. */
  depth: number;
  /** Members of one array or object. */
  width: number;
  /** Values in the whole body (roughly: members plus containers). */
  values: number;
}

/**
 * What makes raw JSON too costly to parse and validate, or null. One linear pass over the bytes, counting brackets
 * and commas outside strings, run before JSON.parse: a hostile shape never reaches the parser, class-transformer
 * (quadratic on wide objects) or our recursive code. Works on UTF-8 bytes: every byte of a multi-byte character is
 * >= 0x80, so it never looks like a bracket, comma, quote or backslash.
 */
export function jsonShapeProblem(raw: Uint8Array, limits: JsonShapeLimits): 'depth' | 'width' | 'values' | null {
  const commas = new Uint32Array(limits.depth + 1);
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === COMMA) {
      values += 1;
      if (depth > 0 && ++commas[depth] >= limits.width) return 'width';
      if (values >= limits.values) return 'values';
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      values += 1;
      if (depth > limits.depth) return 'depth';
      if (values >= limits.values) return 'values';
      commas[depth] = 0;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth = Math.max(0, depth - 1);
    }
  }
  return null;
}
