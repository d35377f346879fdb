const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether raw JSON nests arrays/objects deeper than `max`. One linear pass over the bytes, counting brackets outside
 * strings, run before JSON.parse so a hostile body never reaches a recursive parser or validator. Works on UTF-8
 * bytes: every byte of a multi-byte character is >= 0x80, so it never looks like a bracket, quote or backslash.
 */
export function jsonDepthExceeds(raw: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}
