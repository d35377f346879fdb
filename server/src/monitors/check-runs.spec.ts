import { MonitorRuns } from './check-runs';
import type { RecordedResult } from './monitors.repository';

/** A check that ends when the test says so, answering a distinct result. */
function held(label: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const result = { checkId: label.length, label } as unknown as RecordedResult;
  const promise = new Promise<RecordedResult | null>((resolve, reject) => {
    finish = () => resolve(result);
    fail = reject;
  });
  return { promise, result, finish, fail, check: jest.fn(() => promise) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(MonitorRuns.name, () => {
  it('answers a scheduled check due during a running one with that one', async () => {
    const sut = new MonitorRuns();
    const running = held('running');
    const due = held('due');
    const a = sut.join(1, running.check);
    const b = sut.join(1, due.check);
    expect(sut.isRunning(1)).toBe(true);
    running.finish();
    expect(await b).toBe(await a);
    expect(due.check).not.toHaveBeenCalled();
    expect(sut.isRunning(1)).toBe(false);
  });

  it('starts a manual check at once when nothing runs, and keeps monitors apart', async () => {
    const sut = new MonitorRuns();
    const one = held('one');
    const two = held('two');
    sut.join(1, one.check);
    const manual = sut.after(2, two.check);
    expect(two.check).toHaveBeenCalledTimes(1);
    two.finish();
    expect(await manual).toBe(two.result);
  });

  it('runs a manual check after the running one, shared by every ask until it starts', async () => {
    const sut = new MonitorRuns();
    const running = held('running');
    const manual = held('manual');
    const later = held('later');
    sut.join(1, running.check);
    const asks = [sut.after(1, manual.check), sut.after(1, later.check)];
    await settle();
    expect(manual.check).not.toHaveBeenCalled();
    running.fail(new Error('store refused'));
    await settle();
    expect(manual.check).toHaveBeenCalledTimes(1);
    expect(later.check).not.toHaveBeenCalled();
    manual.finish();
    expect(await Promise.all(asks)).toEqual([manual.result, manual.result]);
  });
});
