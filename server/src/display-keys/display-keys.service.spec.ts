import { fakeAuditLog } from '../audit/audit-log.testing';
import { createHash } from 'node:crypto';
import { CredentialLimiter } from '../auth/credential-limiter';
import { Limiter } from '../common/limits/limiter';
import type { DomainEvents } from '../events/domain-events.service';
import type { DisplayKeysRepository } from './display-keys.repository';
import { DisplayKeysService } from './display-keys.service';

describe(DisplayKeysService.name, () => {
  let keys: { use: jest.Mock };
  let failures: CredentialLimiter;
  let sut: DisplayKeysService;

  beforeEach(() => {
    // The key 'vgd_valid-key' is stored; every other key is unknown.
    keys = { use: jest.fn(async (hash: string) => (hash === sha256('vgd_valid-key') ? 7 : null)) };
    failures = new CredentialLimiter(new Limiter(), { credentialFailuresPerMinute: 60 });
    sut = new DisplayKeysService(keys as unknown as DisplayKeysRepository, {} as DomainEvents, failures, fakeAuditLog());
  });

  it('answers a stored key with its id in one lookup, and a wrong one with wall.keyInvalid', async () => {
    expect(await sut.verify('vgd_valid-key', '203.0.113.7')).toEqual({ ok: true, id: 7 });
    expect(await sut.verify('vgd_wrong-key', '203.0.113.7')).toEqual({ ok: false, code: 'wall.keyInvalid' });
    expect(keys.use).toHaveBeenCalledTimes(2);
  });

  it('refuses an address past its unknown keys before any lookup, even with a good key, and only that address', async () => {
    for (let i = 0; i < failures.policy.burst; i += 1) await sut.verify(`vgd_guess-${i}`, '203.0.113.7');
    keys.use.mockClear();
    expect(await sut.verify('vgd_guess-x', '203.0.113.7')).toEqual({ ok: false, code: 'wall.tooManyFailures', retryAfter: 1 });
    expect(await sut.verify('vgd_valid-key', '203.0.113.7')).toMatchObject({ ok: false, code: 'wall.tooManyFailures' });
    expect(keys.use).not.toHaveBeenCalled();
    expect(await sut.verify('vgd_valid-key', '203.0.113.8')).toEqual({ ok: true, id: 7 });
  });

  it('counts malformed keys against the address without a lookup, and never counts a good key', async () => {
    for (let i = 0; i < 3 * failures.policy.burst; i += 1) await sut.verify('vgd_valid-key', '203.0.113.7');
    expect(await failures.retryAfter('display', '203.0.113.7')).toBe(0);
    await sut.verify('short', '203.0.113.7');
    await sut.verify(42, '203.0.113.7');
    expect(keys.use).toHaveBeenCalledTimes(3 * failures.policy.burst);
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
