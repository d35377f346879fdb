import { packetSizeGuard, topicMatches } from './mqtt-session';

describe('topicMatches', () => {
  it.each([
    ['home/kitchen/temp', 'home/kitchen/temp', true],
    ['home/+/temp', 'home/kitchen/temp', true],
    ['home/+/temp', 'home/kitchen/humidity', false],
    ['home/#', 'home/kitchen/temp', true],
    ['home/#', 'home', true],
    ['#', 'anything/at/all', true],
    ['home/+', 'home/kitchen/temp', false],
    ['home/kitchen/temp', 'home/kitchen', false],
  ])('matches the filter %s against %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });
});

describe('packetSizeGuard', () => {
  /** Feeds `bytes` in chunks of `size` and says after how many chunks the guard tripped (null: never). */
  function trippedAfter(limit: number, bytes: number[], size: number): number | null {
    let tripped: number | null = null;
    let fed = 0;
    const sut = packetSizeGuard(limit, () => (tripped ??= fed));
    for (let start = 0; start < bytes.length; start += size) {
      fed += 1;
      sut(Buffer.from(bytes.slice(start, start + size)));
    }
    return tripped;
  }
  const connack = [0x20, 0x02, 0x00, 0x00];
  /** A PUBLISH announcing 200 bytes (remaining length in two bytes: 0xc8 0x01), its body not sent. */
  const bigHeader = [0x30, 0xc8, 0x01];
  const small = (n: number) => [0x30, n, ...Array<number>(n).fill(0x61)];

  it.each([
    ['packets within the limit, whole', [...connack, ...small(100), ...small(50)], 1000, null],
    ['packets within the limit, byte by byte', [...connack, ...small(100), ...small(50)], 1, null],
    ['a packet over the limit after others', [...connack, ...small(100), ...bigHeader], 1000, 1],
    ['a packet over the limit with its length split across chunks', [...connack, ...small(3), ...bigHeader], 1, 12],
    ['a malformed length (a fifth length byte announced)', [0x30, 0x80, 0x80, 0x80, 0x80, 0x00], 1, 5],
  ])('with %s trips after chunk %s', (_case, bytes, size, expected) => {
    expect(trippedAfter(150, bytes, size)).toBe(expected);
  });
});
