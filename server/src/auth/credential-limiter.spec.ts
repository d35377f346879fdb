import { Limiter } from '../common/limits/limiter';
import { CredentialLimiter } from './credential-limiter';

describe(CredentialLimiter.name, () => {
  it('refuses an address after a burst of unknown credentials of one kind, and only for that kind', async () => {
    const sut = new CredentialLimiter(new Limiter(), { credentialFailuresPerMinute: 60 });
    for (let i = 0; i < sut.policy.burst; i += 1) {
      expect(await sut.retryAfter('agent', '203.0.113.7')).toBe(0);
      await sut.failed('agent', '203.0.113.7');
    }
    expect(await sut.retryAfter('agent', '203.0.113.7')).toBe(1);
    expect(await sut.retryAfter('display', '203.0.113.7')).toBe(0);
    expect(await sut.retryAfter('agent', '203.0.113.8')).toBe(0);
  });

  it('never counts a check as a failure', async () => {
    const sut = new CredentialLimiter(new Limiter(), { credentialFailuresPerMinute: 60 });
    for (let i = 0; i < 5 * sut.policy.burst; i += 1) expect(await sut.retryAfter('display', '203.0.113.7')).toBe(0);
  });
});
