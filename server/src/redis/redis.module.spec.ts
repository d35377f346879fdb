import { redisAddress } from './redis.module';

describe('redisAddress', () => {
  it.each([
    ['redis://:hunter2@cache.internal:6380/0', 'cache.internal:6380'],
    ['rediss://vigil:hunter2@10.0.0.5', '10.0.0.5:6379'],
    ['redis://127.0.0.1:6379', '127.0.0.1:6379'],
  ])('names %s as %s in log lines, without user or password', (url, expected) => {
    expect(redisAddress(url)).toBe(expected);
  });
});
