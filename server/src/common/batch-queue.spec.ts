import { faultText, isRowFault, storeIsolating } from './batch-queue';

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
