import { afterFailure, describeFailure, retryDelayMs } from './delivery';
import { DeliveryError } from './providers';

const middle = () => 0.5;

describe('retryDelayMs', () => {
  it('doubles from the base', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, 30_000, middle))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000]);
  });

  it('spreads by at most 10 % either way', () => {
    expect(retryDelayMs(1, 1000, () => 0)).toBe(900);
    expect(retryDelayMs(1, 1000, () => 0.999999)).toBe(1100);
  });

  it('spans about half an hour with the default 7 attempts and a 30 s base', () => {
    const waits = [1, 2, 3, 4, 5, 6].reduce((sum, n) => sum + retryDelayMs(n, 30_000, middle), 0);
    expect(waits / 60_000).toBeCloseTo(31.5, 1);
  });
});

describe('afterFailure', () => {
  it('retries a 5xx, a timeout and a network error while attempts remain', () => {
    expect(afterFailure(new DeliveryError('HTTP 500', 500), 1, 7, 1000, middle)).toEqual({ status: 'retry', delayMs: 1000 });
    expect(afterFailure(new DeliveryError('Timed out after 10 s'), 2, 7, 1000, middle)).toEqual({ status: 'retry', delayMs: 2000 });
  });

  it('gives up after the last attempt', () => {
    expect(afterFailure(new DeliveryError('HTTP 500', 500), 7, 7, 1000, middle)).toEqual({ status: 'failed' });
  });

  it('does not retry what cannot pass: a 4xx like a wrong token or chat', () => {
    expect(afterFailure(new DeliveryError('Unauthorized', 401), 1, 7, 1000, middle)).toEqual({ status: 'failed' });
  });

  it('waits at least as long as the provider asked', () => {
    expect(afterFailure(new DeliveryError('Too Many Requests', 429, { retryAfterMs: 45_000 }), 1, 7, 1000, middle)).toEqual({
      status: 'retry',
      delayMs: 45_000,
    });
  });

  it('does not retry an unexpected error of our own', () => {
    expect(afterFailure(new TypeError('x is undefined'), 1, 7, 1000, middle)).toEqual({ status: 'failed' });
  });
});

describe('describeFailure', () => {
  it('keeps a provider error and its status', () => {
    expect(describeFailure(new DeliveryError('HTTP 502: bad gateway', 502))).toEqual({ httpStatus: 502, detail: 'HTTP 502: bad gateway' });
  });

  it('does not repeat an unexpected error message, which might hold anything', () => {
    expect(describeFailure(new TypeError('token=abc'))).toEqual({ httpStatus: null, detail: 'Unexpected error: TypeError' });
  });
});
