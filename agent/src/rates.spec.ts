import { rateKBs, ratesSince } from './rates';

describe('network rates from counters', () => {
  it.each([
    ['growth', 0, 102_400, 10_000, 10],
    ['first sample', undefined, 5_000, 10_000, 0],
    ['counter reset', 9_000_000, 100, 10_000, 0],
    ['no time passed', 0, 4_096, 0, 0],
    ['two decimals', 0, 1_000, 3_000, 0.33],
  ])('%s', (_, previous, current, elapsed, expected) => {
    expect(rateKBs(previous as number | undefined, current as number, elapsed as number)).toBe(expected);
  });

  it('rates every interface against its own previous counters', () => {
    const first = { at: 0, counters: new Map([['eth0', { rx: 0, tx: 0 }]]) };
    const second = {
      at: 2_000,
      counters: new Map([
        ['eth0', { rx: 4_096, tx: 2_048 }],
        ['eth1', { rx: 50, tx: 50 }],
      ]),
    };
    expect(Object.fromEntries(ratesSince(null, first))).toEqual({ eth0: { rx: 0, tx: 0 } });
    expect(Object.fromEntries(ratesSince(first, second))).toEqual({ eth0: { rx: 2, tx: 1 }, eth1: { rx: 0, tx: 0 } });
  });
});
