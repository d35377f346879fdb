import { HttpStatus } from '@nestjs/common';
import type { LoginLimiter } from '../auth/login-limiter';
import { fakeAuditLog } from '../audit/audit-log.testing';
import { ApiException } from '../common/api-exception';
import type { DomainEvents } from '../events/domain-events.service';
import type { SettingsService } from '../settings/settings.service';
import type { PasswordHasher } from './password-hasher';
import type { User } from './user.entity';
import type { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** An in-memory user table, enough for the registration rules. */
function fakeUsers(existing: Array<Pick<User, 'username' | 'email'>>) {
  const rows = existing.map((user, i) => ({ ...user, id: i + 1 }));
  const repository = {
    count: jest.fn(async () => rows.length),
    usernameTaken: jest.fn(async (name: string) => rows.some((row) => row.username.toLowerCase() === name.toLowerCase())),
    emailTaken: jest.fn(async (email: string) => rows.some((row) => row.email?.toLowerCase() === email.toLowerCase())),
    insert: jest.fn(async (user: Omit<User, 'id'>) => {
      const row = { ...user, id: rows.length + 1, tokenVersion: 0, createdAt: new Date(), updatedAt: new Date() };
      rows.push(row);
      return row;
    }),
    transaction: jest.fn((_lock: number, work: (users: unknown) => Promise<unknown>): Promise<unknown> => work(repository)),
  };
  return repository;
}

describe(UsersService.name, () => {
  let hasher: { hash: jest.Mock; verify: jest.Mock };
  let users: ReturnType<typeof fakeUsers>;
  let allowRegistration: boolean;

  const service = (existing: Array<Pick<User, 'username' | 'email'>>) => {
    users = fakeUsers(existing);
    const settings = { read: async () => ({ allowRegistration }) } as unknown as SettingsService;
    const events = { emit: jest.fn() } as unknown as DomainEvents;
    return new UsersService(
      users as unknown as UsersRepository,
      settings,
      events,
      {} as LoginLimiter,
      hasher as unknown as PasswordHasher,
      fakeAuditLog(),
    );
  };
  const founder = { username: 'founder', email: 'founder@example.test' };
  const input = { username: 'newbie', email: 'newbie@example.test', password: 'correct-horse-1' };

  beforeEach(() => {
    hasher = { hash: jest.fn(async (password: string) => `hash:${password}`), verify: jest.fn() };
    allowRegistration = false;
  });

  async function refusal(promise: Promise<unknown>): Promise<[HttpStatus, string]> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    if (!(error instanceof ApiException)) throw new Error(`expected a refusal, got ${String(error)}`);
    return [error.getStatus(), error.code];
  }

  describe('register', () => {
    it('answers 403 while registration is closed without hashing the password', async () => {
      const sut = service([founder]);
      expect(await refusal(sut.register(input))).toEqual([HttpStatus.FORBIDDEN, 'auth.registrationClosed']);
      expect(hasher.hash).not.toHaveBeenCalled();
      expect(users.transaction).not.toHaveBeenCalled();
    });

    it.each([
      ['username', { ...input, username: 'FOUNDER' }, 'auth.usernameExists'],
      ['email', { ...input, email: 'Founder@example.test' }, 'auth.emailExists'],
    ])('answers 409 for a taken %s without hashing the password', async (_field, taken, code) => {
      allowRegistration = true;
      const sut = service([founder]);
      expect(await refusal(sut.register(taken))).toEqual([HttpStatus.CONFLICT, code]);
      expect(hasher.hash).not.toHaveBeenCalled();
    });

    it('hashes once an attempt may succeed, and decides again inside the transaction', async () => {
      allowRegistration = true;
      const sut = service([founder]);
      const user = await sut.register(input);
      expect(user).toMatchObject({ username: 'newbie', role: 'user' });
      expect(hasher.hash).toHaveBeenCalledTimes(1);
      expect(users.insert).toHaveBeenCalledWith(expect.objectContaining({ passwordHash: 'hash:correct-horse-1' }));
      // Once before the hash, once under the lock.
      expect(users.count).toHaveBeenCalledTimes(2);
    });

    it('makes the very first account the admin even while registration is closed', async () => {
      const sut = service([]);
      expect(await sut.register(input)).toMatchObject({ role: 'admin' });
    });

    it('refuses the loser of a race for the first account after hashing, inside the transaction', async () => {
      const sut = service([]);
      // Another registration becomes the first account while this one hashes.
      hasher.hash.mockImplementationOnce(async (password: string) => {
        await users.insert({ ...founder, passwordHash: 'x', role: 'admin' } as Omit<User, 'id'>);
        return `hash:${password}`;
      });
      expect(await refusal(sut.register(input))).toEqual([HttpStatus.FORBIDDEN, 'auth.registrationClosed']);
      expect(users.insert).toHaveBeenCalledTimes(1);
    });
  });

  describe('create', () => {
    it('answers 409 for a taken username without hashing the password', async () => {
      const sut = service([founder]);
      expect(await refusal(sut.create({ ...input, username: 'founder' }))).toEqual([HttpStatus.CONFLICT, 'auth.usernameExists']);
      expect(hasher.hash).not.toHaveBeenCalled();
    });
  });
});
