import { HttpStatus } from '@nestjs/common';
import { fakeAuditLog } from '../audit/audit-log.testing';
import { ApiException } from '../common/api-exception';
import { Limiter } from '../common/limits/limiter';
import type { SettingsService } from '../settings/settings.service';
import type { PasswordSignInPolicy } from '../sso/password-sign-in.policy';
import type { PasswordHasher } from '../users/password-hasher';
import type { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { LoginLimiter } from './login-limiter';
import type { RegistrationLimiter } from './registration-limiter';
import type { TokenService } from './token.service';
import { TwoFactorRequiredException, type TwoFactorService } from './two-factor/two-factor.service';

describe(AuthService.name, () => {
  const input = { username: 'newbie', email: 'newbie@example.test', password: 'correct-horse-1' };
  let users: { register: jest.Mock; findByUsername: jest.Mock };
  let hasher: { verify: jest.Mock; verifyDecoy: jest.Mock };
  let registrations: { take: jest.Mock };
  let twoFactor: { checkSignIn: jest.Mock; setupRequired: jest.Mock };
  let sut: AuthService;

  beforeEach(() => {
    users = { register: jest.fn(async () => ({ id: 2, username: 'newbie' })), findByUsername: jest.fn(async () => null) };
    hasher = { verify: jest.fn(async () => false), verifyDecoy: jest.fn(async () => false) };
    registrations = { take: jest.fn(async () => undefined) };
    twoFactor = { checkSignIn: jest.fn(async () => undefined), setupRequired: jest.fn(async () => false) };
    sut = new AuthService(
      users as unknown as UsersService,
      {} as TokenService,
      new LoginLimiter(new Limiter()),
      {} as SettingsService,
      hasher as unknown as PasswordHasher,
      registrations as unknown as RegistrationLimiter,
      twoFactor as unknown as TwoFactorService,
      { current: async () => 'open' } as unknown as PasswordSignInPolicy,
      fakeAuditLog(),
    );
  });

  it("spends the address's registration allowance before anything else", async () => {
    await sut.register(input, '203.0.113.7');
    expect(registrations.take).toHaveBeenCalledWith('203.0.113.7');
    expect(registrations.take.mock.invocationCallOrder[0]).toBeLessThan(users.register.mock.invocationCallOrder[0]);
  });

  it('answers 429 past the allowance without reading or hashing anything', async () => {
    registrations.take.mockRejectedValue(new ApiException(HttpStatus.TOO_MANY_REQUESTS, 'auth.tooManyRegistrations', undefined, 360));
    await expect(sut.register(input, '203.0.113.7')).rejects.toMatchObject({ code: 'auth.tooManyRegistrations', retryAfterSeconds: 360 });
    expect(users.register).not.toHaveBeenCalled();
  });

  it('verifies an unknown username against the decoy, through the same hashing queue', async () => {
    await expect(sut.login({ username: 'ghost', password: 'nope-nope-1' }, '203.0.113.7')).rejects.toMatchObject({
      code: 'auth.invalidCredentials',
    });
    expect(hasher.verifyDecoy).toHaveBeenCalledWith('nope-nope-1');
    expect(hasher.verify).not.toHaveBeenCalled();
  });

  describe('with two-factor sign-in', () => {
    const owner = { id: 5, username: 'owner', passwordHash: 'hash', role: 'user', createdAt: new Date(0) };
    const tokens = { issue: jest.fn(async () => 'signed-token') };

    beforeEach(() => {
      users.findByUsername.mockResolvedValue(owner);
      (sut as unknown as { tokens: unknown }).tokens = tokens;
    });

    it('refuses a wrong password before looking at the second factor, so it reveals nothing about it', async () => {
      await expect(sut.login({ username: 'owner', password: 'wrong-pass-1' }, '203.0.113.7')).rejects.toMatchObject({
        code: 'auth.invalidCredentials',
      });
      expect(twoFactor.checkSignIn).not.toHaveBeenCalled();
    });

    it('issues no token when the second factor is refused', async () => {
      hasher.verify.mockResolvedValue(true);
      twoFactor.checkSignIn.mockRejectedValue(new TwoFactorRequiredException('auth.twoFactorRequired'));
      const refused = await sut.login({ username: 'owner', password: 'right-pass-1' }, '203.0.113.7').catch((error: ApiException) => error);
      expect((refused as ApiException).getResponse()).toMatchObject({
        success: false,
        twoFactorRequired: true,
        code: 'auth.twoFactorRequired',
      });
      expect(twoFactor.checkSignIn).toHaveBeenCalledWith(5, 'owner', undefined, '203.0.113.7');
      expect(tokens.issue).not.toHaveBeenCalled();
    });

    it('flags an account that still has to set it up when admins require it', async () => {
      hasher.verify.mockResolvedValue(true);
      twoFactor.setupRequired.mockResolvedValue(true);
      await expect(sut.login({ username: 'owner', password: 'right-pass-1', code: '123456' }, '203.0.113.7')).resolves.toMatchObject({
        token: 'signed-token',
        twoFactorSetupRequired: true,
      });
    });

    it('adds no field to the answer when nothing is required', async () => {
      hasher.verify.mockResolvedValue(true);
      const answer = await sut.login({ username: 'owner', password: 'right-pass-1' }, '203.0.113.7');
      expect(Object.keys(answer).sort()).toEqual(['token', 'user']);
    });
  });
});
