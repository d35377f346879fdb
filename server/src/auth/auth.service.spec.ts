import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../common/api-exception';
import type { SettingsService } from '../settings/settings.service';
import type { PasswordHasher } from '../users/password-hasher';
import type { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { LoginLimiter } from './login-limiter';
import type { RegistrationLimiter } from './registration-limiter';
import type { TokenService } from './token.service';

describe(AuthService.name, () => {
  const input = { username: 'newbie', email: 'newbie@example.test', password: 'correct-horse-1' };
  let users: { register: jest.Mock; findByUsername: jest.Mock };
  let hasher: { verify: jest.Mock; verifyDecoy: jest.Mock };
  let registrations: { take: jest.Mock };
  let sut: AuthService;

  beforeEach(() => {
    users = { register: jest.fn(async () => ({ id: 2, username: 'newbie' })), findByUsername: jest.fn(async () => null) };
    hasher = { verify: jest.fn(async () => false), verifyDecoy: jest.fn(async () => false) };
    registrations = { take: jest.fn(async () => undefined) };
    sut = new AuthService(
      users as unknown as UsersService,
      {} as TokenService,
      new LoginLimiter(),
      {} as SettingsService,
      hasher as unknown as PasswordHasher,
      registrations as unknown as RegistrationLimiter,
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
});
