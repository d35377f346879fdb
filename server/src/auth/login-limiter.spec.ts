import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_IP, LOGIN_WINDOW_MS } from '@vigil/proto';
import { LoginLimiter } from './login-limiter';

describe('LoginLimiter', () => {
  let now: number;
  let sut: LoginLimiter;

  beforeEach(() => {
    now = 1_000_000;
    sut = new LoginLimiter(() => now);
  });

  const fail = (times: number, ip: string, username: string) => {
    for (let i = 0; i < times; i += 1) sut.recordFailure(ip, username);
  };

  it('blocks a username after the allowed failures, whatever address they come from', () => {
    fail(LOGIN_MAX_FAILURES - 1, '10.0.0.1', 'alice');
    expect(sut.isBlocked('10.0.0.9', 'alice')).toBe(false);
    sut.recordFailure('10.0.0.2', 'Alice');
    expect(sut.isBlocked('10.0.0.9', 'ALICE')).toBe(true);
    expect(sut.isBlocked('10.0.0.9', 'bob')).toBe(false);
  });

  it('blocks an address spraying many usernames', () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IP; i += 1) sut.recordFailure('10.0.0.1', `user${i}`);
    expect(sut.isBlocked('10.0.0.1', 'someone-new')).toBe(true);
    expect(sut.isBlocked('10.0.0.2', 'someone-new')).toBe(false);
  });

  it('lets the account in again once the window has passed', () => {
    fail(LOGIN_MAX_FAILURES, '10.0.0.1', 'alice');
    expect(sut.isBlocked('10.0.0.1', 'alice')).toBe(true);
    now += LOGIN_WINDOW_MS + 1;
    expect(sut.isBlocked('10.0.0.1', 'alice')).toBe(false);
  });

  it('clears the account counter on a successful login but keeps the address record', () => {
    fail(LOGIN_MAX_FAILURES - 1, '10.0.0.1', 'alice');
    sut.recordSuccess('alice');
    sut.recordFailure('10.0.0.1', 'alice');
    expect(sut.isBlocked('10.0.0.1', 'alice')).toBe(false);
    fail(LOGIN_MAX_FAILURES_PER_IP, '10.0.0.1', 'x');
    expect(sut.isBlocked('10.0.0.1', 'alice')).toBe(true);
  });
});
