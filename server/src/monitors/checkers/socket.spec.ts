import { describeFailure } from './failure';
import { withinTimeout } from './socket';

describe('withinTimeout', () => {
  it('answers what the work answers, and its failure as it is', async () => {
    await expect(withinTimeout(Promise.resolve('1.2.3.4'), 1000)).resolves.toBe('1.2.3.4');
    const refused = Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
    await expect(withinTimeout(Promise.reject(refused), 1000)).rejects.toBe(refused);
  });

  it('fails with a timeout the checks word as one when the work takes longer', async () => {
    const never = new Promise<string>(() => {});
    const error = await withinTimeout(never, 20).catch((failure: unknown) => failure);
    expect(describeFailure(error, 5)).toBe('Timeout after 5 s');
  });

  it('leaves no timer behind once the work is done', async () => {
    jest.useFakeTimers();
    try {
      await withinTimeout(Promise.resolve(1), 60_000);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
