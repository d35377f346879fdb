import { BatchQueue, faultText, isRowFault, storeIsolating } from './batch-queue';

/** What pg (through TypeORM) throws when a value does not fit its column. */
const outOfRange = () => Object.assign(new Error('value "73786976294838206464" is out of range for type bigint'), { code: '22003' });

/** A fake table that refuses the whole statement when one of its rows is bad, as one transaction does. */
function table(bad: (n: number) => boolean, failure: () => Error = outOfRange) {
  const stored: number[] = [];
  const statements: number[][] = [];
  const store = async (part: number[]) => {
    statements.push(part);
    if (part.some(bad)) throw failure();
    stored.push(...part);
  };
  return { stored, statements, store };
}

describe('storing a batch with bad rows isolated', () => {
  const batch = Array.from({ length: 500 }, (_, i) => i);

  it('stores a healthy batch in one statement', async () => {
    const sut = table(() => false);
    expect(await storeIsolating(batch, sut.store)).toEqual([]);
    expect(sut.statements).toHaveLength(1);
    expect(sut.stored).toEqual(batch);
  });

  it.each([
    ['the first row', [0]],
    ['the last row', [499]],
    ['a middle row', [250]],
    ['three rows', [3, 4, 377]],
    ['every row', batch],
  ])('stores every other row exactly once when %s is refused', async (_name, bad) => {
    const sut = table((n) => bad.includes(n));
    const refused = await storeIsolating(batch, sut.store);
    expect(refused.map((r) => r.item)).toEqual(bad);
    expect(refused.every((r) => (r.error as { code: string }).code === '22003')).toBe(true);
    expect([...sut.stored].sort((a, b) => a - b)).toEqual(batch.filter((n) => !bad.includes(n)));
  });

  it('finds one bad row among 500 in a few statements', async () => {
    const sut = table((n) => n === 123);
    await storeIsolating(batch, sut.store);
    expect(sut.statements.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(batch.length)));
  });

  it('gives up on the whole batch, without splitting it, when the database itself fails', async () => {
    const down = Object.assign(new Error('Connection terminated unexpectedly'), {});
    const sut = table(
      () => true,
      () => down,
    );
    await expect(storeIsolating(batch, sut.store)).rejects.toBe(down);
    expect(sut.statements).toHaveLength(1);
  });

  it.each([
    ['22003', true],
    ['23505', true],
    ['P0001', true],
    ['54000', true],
    ['08006', false],
    ['57P01', false],
    ['40001', false],
    [undefined, false],
  ])('takes SQLSTATE %s as a row fault: %s', (code, expected) => {
    expect(isRowFault(Object.assign(new Error('x'), { code }))).toBe(expected);
    expect(isRowFault({ driverError: { code } })).toBe(expected);
  });

  it('logs the SQLSTATE and a short sentence', () => {
    expect(faultText(outOfRange())).toBe('22003 value "73786976294838206464" is out of range for type bigint');
    expect(faultText(Object.assign(new Error('x'.repeat(500)), { code: 'P0001' }))).toHaveLength(206);
  });
});

describe('BatchQueue', () => {
  /** A store whose batches finish only when the test says so. */
  function slowStore() {
    const batches: number[][] = [];
    const finish: Array<() => void> = [];
    const store = (batch: number[]) =>
      new Promise<void>((resolve) => {
        batches.push(batch);
        finish.push(resolve);
      });
    return { batches, finish, store };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stores what was pushed in batches of at most maxBatch, in order', async () => {
    const stored: number[][] = [];
    const sut = new BatchQueue<number>({ everyMs: 200, maxBatch: 3 }, async (batch) => void stored.push(batch));
    for (let n = 1; n <= 7; n += 1) void sut.push(n);
    await jest.advanceTimersByTimeAsync(200);
    expect(stored).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(sut.waiting).toBe(0);
  });

  it('leaves what arrives while a batch is stored for the next period, not a straggler batch right after', async () => {
    const db = slowStore();
    const sut = new BatchQueue<number>({ everyMs: 200, maxBatch: 10 }, db.store);
    void sut.push(1);
    void sut.push(2);
    await jest.advanceTimersByTimeAsync(200);
    void sut.push(3);
    db.finish[0]();
    await jest.advanceTimersByTimeAsync(199);
    expect(db.batches).toEqual([[1, 2]]);
    await jest.advanceTimersByTimeAsync(1);
    expect(db.batches).toEqual([[1, 2], [3]]);
  });

  it('counts an item as waiting until its batch is stored', async () => {
    const db = slowStore();
    const sut = new BatchQueue<number>({ everyMs: 200, maxBatch: 10, capacity: 5 }, db.store);
    void sut.push(1);
    void sut.push(2);
    expect([sut.waiting, sut.room]).toEqual([2, 3]);
    await jest.advanceTimersByTimeAsync(200);
    expect(db.batches).toEqual([[1, 2]]);
    expect([sut.waiting, sut.room]).toEqual([2, 3]);
    db.finish[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect([sut.waiting, sut.room]).toEqual([0, 5]);
  });

  it('holds pushes beyond its capacity until stored batches make room, then takes them in order', async () => {
    const db = slowStore();
    const sut = new BatchQueue<number>({ everyMs: 200, maxBatch: 2, capacity: 4 }, db.store);
    const accepted: number[] = [];
    for (let n = 1; n <= 7; n += 1) void sut.push(n).then(() => accepted.push(n));
    await jest.advanceTimersByTimeAsync(0);
    // Four fit; the database has the first batch and has not finished it.
    expect(accepted).toEqual([1, 2, 3, 4]);
    expect(db.batches).toEqual([[1, 2]]);
    expect([sut.waiting, sut.room]).toEqual([7, 0]);

    db.finish[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect(accepted).toEqual([1, 2, 3, 4, 5, 6]);
    expect(db.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    db.finish[1]();
    await jest.advanceTimersByTimeAsync(0);
    expect(accepted).toEqual([1, 2, 3, 4, 5, 6, 7]);
    db.finish[2]();
    await jest.advanceTimersByTimeAsync(0);
    db.finish[3]();
    await jest.advanceTimersByTimeAsync(0);
    expect(db.batches).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(sut.waiting).toBe(0);
  });

  it('never holds more than its capacity in memory while the database is slow', async () => {
    const db = slowStore();
    const sut = new BatchQueue<number>({ everyMs: 10, maxBatch: 3, capacity: 6 }, db.store);
    let accepted = 0;
    let mostWaiting = 0;
    let producerDone = false;
    // A producer that waits for each push, as the writer's callers do.
    void (async () => {
      for (let n = 0; n < 30; n += 1) {
        await sut.push(n);
        accepted += 1;
        mostWaiting = Math.max(mostWaiting, sut.waiting);
      }
      producerDone = true;
    })();
    await jest.advanceTimersByTimeAsync(50);
    expect(accepted).toBe(6);
    for (let round = 0; (!producerDone || sut.waiting) && round < 40; round += 1) {
      db.finish[db.finish.length - 1]();
      await jest.advanceTimersByTimeAsync(20);
    }
    expect(producerDone).toBe(true);
    expect(mostWaiting).toBe(6);
    expect(db.batches.flat()).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it('drains what is queued and what waits for room on shutdown', async () => {
    const stored: number[] = [];
    const sut = new BatchQueue<number>({ everyMs: 60_000, maxBatch: 2, capacity: 2 }, async (batch) => void stored.push(...batch));
    for (let n = 1; n <= 5; n += 1) void sut.push(n);
    await sut.drain();
    expect(stored).toEqual([1, 2, 3, 4, 5]);
  });
});
