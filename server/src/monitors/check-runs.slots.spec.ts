import { BATCHED_PER_SLOT, BudgetGate, CheckSlots } from './check-runs';

describe('CheckSlots', () => {
  it('gives out at most CHECK_CONCURRENCY slots and takes them back when the network work ends', () => {
    const sut = new CheckSlots(2, () => 1000);
    expect([sut.take(0), sut.take(0), sut.take(0)]).toEqual([true, true, false]);
    expect(sut.inFlight).toBe(2);
    sut.release();
    expect(sut.take(0)).toBe(true);
    expect(sut.inFlight).toBe(2);
  });

  it('starts a check only while the write queue has a place for its result and for those of every check in flight', () => {
    let room = 2;
    const sut = new CheckSlots(256, () => room);
    expect([sut.take(0), sut.take(0), sut.take(0)]).toEqual([true, true, false]);
    sut.release();
    // The released check's result now takes one of those places.
    room = 1;
    expect(sut.take(0)).toBe(false);
    room = 3;
    expect(sut.take(0)).toBe(true);
  });

  it('counts the time due checks were held back by a full write queue, and only that', () => {
    let room = 0;
    const sut = new CheckSlots(1, () => room);
    expect(sut.take(1000)).toBe(false);
    expect(sut.take(1050)).toBe(false);
    expect(sut.heldBackMs(1100)).toBe(100);
    room = 10;
    expect(sut.take(1400)).toBe(true);
    expect(sut.heldBackMs(5000)).toBe(400);
    // Every slot taken is the concurrency limit, not the database: not counted.
    expect(sut.take(5000)).toBe(false);
    expect(sut.heldBackMs(6000)).toBe(400);
    sut.release();
    room = 0;
    expect(sut.take(6000)).toBe(false);
    sut.idle(6250);
    expect(sut.heldBackMs(9000)).toBe(650);
  });

  it('counts checks of a batched type apart, so a burst of them leaves the slots of the other types free', () => {
    const sut = new CheckSlots(2, () => 1000);
    const batched = Array.from({ length: 2 * BATCHED_PER_SLOT + 1 }, () => sut.take(0, true));
    expect(batched.filter(Boolean)).toHaveLength(2 * BATCHED_PER_SLOT);
    expect([sut.take(0), sut.take(0), sut.take(0)]).toEqual([true, true, false]);
    expect(sut.inFlight).toBe(2 * BATCHED_PER_SLOT + 2);
    sut.release(true);
    expect(sut.take(0)).toBe(false);
    expect(sut.take(0, true)).toBe(true);
  });

  it('holds batched checks back too while the write queue has no place for their results', () => {
    let room = 3;
    const sut = new CheckSlots(256, () => room);
    expect([sut.take(0, true), sut.take(0), sut.take(0, true), sut.take(0, true)]).toEqual([true, true, true, false]);
    room = 10;
    expect(sut.take(0, true)).toBe(true);
  });
});

describe('BudgetGate', () => {
  it('admits at most its budget per key and lets other keys in meanwhile', async () => {
    const sut = new BudgetGate(2);
    expect([sut.tryEnter('a:1'), sut.tryEnter('a:1'), sut.tryEnter('a:1'), sut.tryEnter('b:1')]).toEqual([true, true, false, true]);
    expect([sut.inFlight('a:1'), sut.inFlight('b:1')]).toEqual([2, 1]);
  });

  it('hands a freed place to the first waiter, and nobody jumps the queue meanwhile', async () => {
    const sut = new BudgetGate(1);
    sut.tryEnter('a:1');
    const order: string[] = [];
    const first = sut.enter('a:1', 1000).then((ok) => order.push(`first ${ok}`));
    const second = sut.enter('a:1', 1000).then((ok) => order.push(`second ${ok}`));
    expect(sut.waiting).toBe(2);
    sut.leave('a:1');
    expect(sut.tryEnter('a:1')).toBe(false);
    sut.leave('a:1');
    await Promise.all([first, second]);
    expect(order).toEqual(['first true', 'second true']);
    expect(sut.inFlight('a:1')).toBe(1);
    sut.leave('a:1');
    expect(sut.inFlight('a:1')).toBe(0);
    expect(sut.tryEnter('a:1')).toBe(true);
  });

  it.each([
    [999, 0],
    [1000, 1],
    [5000, 2],
  ])('gives up waiters whose deadline is past at %s ms (%s of them)', async (now, gaveUp) => {
    const sut = new BudgetGate(1);
    sut.tryEnter('a:1');
    const answers: boolean[] = [];
    void sut.enter('a:1', 1000).then((ok) => answers.push(ok));
    void sut.enter('a:1', 5000).then((ok) => answers.push(ok));
    void sut.enter('a:1', Infinity).then((ok) => answers.push(ok));
    sut.expire(now);
    await Promise.resolve();
    expect(answers).toEqual(Array(gaveUp).fill(false));
    expect(sut.waiting).toBe(3 - gaveUp);
    // The place then goes to the first waiter still waiting.
    sut.leave('a:1');
    await Promise.resolve();
    expect(answers).toEqual([...Array(gaveUp).fill(false), true]);
  });

  it('lets every waiter give up on close', async () => {
    const sut = new BudgetGate(1);
    sut.tryEnter('a:1');
    const waiting = sut.enter('a:1', Infinity);
    sut.close();
    await expect(waiting).resolves.toBe(false);
    expect(sut.waiting).toBe(0);
  });
});
