import { describe, expect, it, vi } from 'vitest';
import { createEntityTable } from './entityTable';

interface Row {
  id: number;
  status: string;
  name: string;
  at: string | null;
}

const row = (overrides: Partial<Row> = {}): Row => ({ id: 1, status: 'up', name: 'web', at: '2025-03-01T10:00:00.000Z', ...overrides });

describe('entity table', () => {
  const rule = {
    stampOf: (held: Row) => held.at,
    // The live figure stays, the rest comes from the read.
    whenOlder: (held: Row, read: Row) => ({ ...read, status: held.status, at: held.at }),
  };

  it('keeps the newer figures of a row when an older read lands after a push', () => {
    const sut = createEntityTable<Row>(rule);
    sut.write([row()]);
    sut.show('list', [1]);
    sut.patch(1, (held) => ({ ...held, status: 'down', at: '2025-03-01T10:05:00.000Z' }));
    sut.write([row({ name: 'renamed', at: '2025-03-01T10:04:00.000Z' })]);
    expect(sut.get(1)).toEqual({ id: 1, status: 'down', name: 'renamed', at: '2025-03-01T10:05:00.000Z' });
  });

  it('takes a read as new as the row held, and one without a stamp over a row without one', () => {
    const sut = createEntityTable<Row>(rule);
    sut.write([row({ status: 'down' })]);
    sut.write([row({ status: 'up' })]);
    expect(sut.get(1)?.status).toBe('up');
    sut.write([row({ status: 'pending', at: null })]);
    expect(sut.get(1)?.status).toBe('up');
  });

  it('dates rows by the stamp given with them when there is one', () => {
    const sut = createEntityTable<Row>();
    sut.write([row({ status: 'down' })], '2025-03-01T10:05:00.000Z');
    sut.write([row({ status: 'up' })], '2025-03-01T10:04:00.000Z');
    expect(sut.get(1)?.status).toBe('down');
    sut.write([row({ status: 'pending' })], '2025-03-01T10:06:00.000Z');
    expect(sut.get(1)?.status).toBe('pending');
  });

  it('gives each view its rows in its order and forgets rows no view shows', () => {
    const sut = createEntityTable<Row>();
    sut.write([row({ id: 1 }), row({ id: 2 }), row({ id: 3 })]);
    sut.show('page', [3, 1]);
    sut.show('detail', [2]);
    expect(sut.rows('page').map((held) => held.id)).toEqual([3, 1]);
    sut.show('page', [1]);
    expect(sut.get(3)).toBeUndefined();
    expect(sut.get(2)).toBeDefined();
  });

  it('ignores a patch of a row it does not hold, and tells listeners only of changes', () => {
    const sut = createEntityTable<Row>();
    const listener = vi.fn();
    sut.subscribe(listener);
    sut.patch(9, (held) => ({ ...held, status: 'down' }));
    expect(sut.get(9)).toBeUndefined();
    expect(listener).not.toHaveBeenCalled();
    sut.write([row()]);
    sut.patch(1, (held) => held);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lays a change pushed before a row was held over the read that brings it, when the read is older', () => {
    let clock = 0;
    const sut = createEntityTable<Row>(rule, () => clock);
    // A new monitor is checked while the list that will show it is loading: the check's push comes first.
    sut.patch(7, (held) => ({ ...held, status: 'up', at: '2025-03-01T10:05:00.000Z' }));
    sut.write([row({ id: 7, status: 'pending', at: null })]);
    expect(sut.get(7)).toMatchObject({ status: 'up', at: '2025-03-01T10:05:00.000Z' });
    // A read newer than the push wins; the kept change is used once.
    sut.patch(8, (held) => ({ ...held, status: 'down', at: '2025-03-01T10:05:00.000Z' }));
    sut.write([row({ id: 8, status: 'up', at: '2025-03-01T10:06:00.000Z' })]);
    expect(sut.get(8)?.status).toBe('up');
    sut.write([row({ id: 8, status: 'degraded', at: '2025-03-01T10:07:00.000Z' })]);
    expect(sut.get(8)?.status).toBe('degraded');
    // A change kept longer than a few seconds is stale.
    sut.patch(9, (held) => ({ ...held, status: 'down', at: '2025-03-01T10:05:00.000Z' }));
    clock += 60_000;
    sut.write([row({ id: 9, status: 'pending', at: null })]);
    expect(sut.get(9)?.status).toBe('pending');
  });

  it('takes an offered whole row only while it is held or a view lists it, and an older read then keeps it', () => {
    const sut = createEntityTable<Row>(rule);
    sut.offer(row({ id: 2 }));
    expect(sut.get(2)).toBeUndefined();
    // A detail page lists the id before its read comes back; the push meanwhile is kept…
    sut.show('detail', [2]);
    sut.offer(row({ id: 2, status: 'down', at: '2025-03-01T10:05:00.000Z' }));
    expect(sut.get(2)?.status).toBe('down');
    // …and the read, taken before the push, does not roll its figures back.
    sut.write([row({ id: 2, name: 'db', at: '2025-03-01T10:04:00.000Z' })]);
    expect(sut.get(2)).toEqual({ id: 2, status: 'down', name: 'db', at: '2025-03-01T10:05:00.000Z' });
  });
});
