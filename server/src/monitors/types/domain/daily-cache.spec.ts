import { DailyCache } from './daily-cache';

describe('DailyCache', () => {
  let clock = 0;
  const sut = () => new DailyCache<string>(1000, 2, () => clock);

  beforeEach(() => (clock = 0));

  it('keeps an answer until its time is up, then loads it again', async () => {
    const cache = sut();
    const load = jest.fn().mockResolvedValueOnce('first').mockResolvedValueOnce('second');
    expect(await cache.get('a', load)).toBe('first');
    clock = 999;
    expect(await cache.get('a', load)).toBe('first');
    clock = 1000;
    expect(await cache.get('a', load)).toBe('second');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure: the next call loads again', async () => {
    const cache = sut();
    const load = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('back');
    await expect(cache.get('a', load)).rejects.toThrow('down');
    expect(await cache.get('a', load)).toBe('back');
  });

  it('holds at most its capacity, dropping the oldest answer first', async () => {
    const cache = sut();
    for (const key of ['a', 'b', 'c']) await cache.get(key, () => Promise.resolve(key));
    const load = jest.fn().mockResolvedValue('again');
    expect(await cache.get('c', load)).toBe('c');
    expect(await cache.get('a', load)).toBe('again');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
