import { atExpiry } from './session-expiry';

describe('atExpiry', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('expires the session at its time and not a moment before', () => {
    const expire = jest.fn();
    atExpiry(Date.now() + 3_000, expire);
    jest.advanceTimersByTime(2_999);
    expect(expire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledTimes(1);
  });

  it('waits out a lifetime longer than one timer can (90 days) instead of firing at once', () => {
    const expire = jest.fn();
    const day = 24 * 3600 * 1000;
    atExpiry(Date.now() + 90 * day, expire);
    jest.advanceTimersByTime(30 * day);
    expect(expire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(60 * day - 1);
    expect(expire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledTimes(1);
  });

  it('expires at once a session whose time has already passed', () => {
    const expire = jest.fn();
    atExpiry(Date.now() - 1, expire);
    expect(expire).toHaveBeenCalledTimes(1);
  });

  it('never expires a session cancelled before its time (the socket disconnected)', () => {
    const expire = jest.fn();
    const cancel = atExpiry(Date.now() + 3_000, expire);
    jest.advanceTimersByTime(1_000);
    cancel();
    jest.advanceTimersByTime(10_000);
    expect(expire).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });
});
