import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_DEFAULT, Role, UserDto, UsersPageResponse } from '@vigil/proto';
import { LoginLimiter } from '../auth/login-limiter';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { AuditLog, type AuditEntry } from '../audit/audit-log.service';
import { changesOf, SECRET } from '../audit/audit-changes';
import type { Sql } from '../database/rows';
import { DomainEvents } from '../events/domain-events.service';
import { SettingsService } from '../settings/settings.service';
import { NO_PASSWORD, PasswordHasher } from './password-hasher';
import { User } from './user.entity';
import { toUserDto } from './user.mapper';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto';
import { uniqueViolation, UsersRepository } from './users.repository';

/** Advisory lock serialising writes that depend on how many users or admins exist. */
const USER_COUNT_LOCK = 7_317_002;

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly events: DomainEvents,
    private readonly limiter: LoginLimiter,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Self-registration: the very first account becomes the admin; later ones need registration switched on. Whether
   * it may succeed (open, name and address free) is decided before the password is hashed, so a refused attempt costs
   * two reads, not an argon2id computation; the transaction decides again, as a concurrent one may have won.
   */
  async register(input: { username: string; email: string; password: string }): Promise<UserDto> {
    const { allowRegistration, passwordLoginDisabled } = await this.settings.read();
    const mayRegister = async (users: UsersRepository): Promise<boolean> => {
      const first = (await users.count()) === 0;
      // Closed too while passwords do not sign in (single sign-on only): the new account would have no way in.
      if (!first && (!allowRegistration || passwordLoginDisabled)) throw forbidden('auth.registrationClosed');
      await this.assertAvailable(users, input.username, input.email);
      return first;
    };
    await mayRegister(this.users);
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const first = await mayRegister(users);
      const created = await this.insert(users, { ...input, passwordHash, role: first ? 'admin' : 'user' });
      // Nobody is signed in: the new account registered itself.
      await this.record(db, 'user.registered', null, created, { id: created.id, username: created.username });
      return created;
    });
    return this.announce('user.created', user);
  }

  async create(input: CreateUserDto): Promise<UserDto> {
    const email = input.email ?? null;
    await this.assertAvailable(this.users, input.username, email);
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const created = await this.insert(users, { username: input.username, email, passwordHash, role: input.role ?? 'user' });
      await this.record(db, 'user.created', null, created);
      return created;
    });
    return this.announce('user.created', user);
  }

  async list(query: ListUsersQuery): Promise<Omit<UsersPageResponse, 'success'>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const [rows, total] = await this.users.list(page, pageSize, query.search?.trim() || undefined);
    return { users: rows.map(toUserDto), total, page, pageSize };
  }

  async get(auth: AuthUser, id: number): Promise<UserDto> {
    this.assertSelfOrAdmin(auth, id);
    return toUserDto(await this.find(this.users, id));
  }

  async update(auth: AuthUser, id: number, input: UpdateUserDto): Promise<UserDto> {
    this.assertSelfOrAdmin(auth, id);
    const isAdmin = auth.role === 'admin';
    const self = auth.id === id;
    // One's own password changes only through change-password, which asks for the current one: a stolen session
    // must not be enough to take the account over (admins included).
    if (self && input.password !== undefined) throw forbidden('users.ownPasswordNeedsCurrent');
    // Ordinary users edit their name and address; roles and password resets are the admins'.
    if (!isAdmin && (input.role !== undefined || input.password !== undefined)) throw forbidden();
    const passwordHash = input.password !== undefined ? await this.hasher.hash(input.password) : undefined;
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const current = await this.find(users, id);
      if (current.role === 'admin' && input.role !== undefined && input.role !== 'admin' && (await users.countAdmins()) <= 1) {
        throw conflict('users.lastAdmin');
      }
      if (self && input.role !== undefined && input.role !== current.role) throw forbidden('users.ownRole');
      await this.assertAvailable(users, input.username, input.email, id);
      const updated = await this.write(() =>
        users.update(id, {
          username: input.username,
          email: input.email,
          role: input.role,
          passwordHash,
          bumpTokenVersion: passwordHash !== undefined || (input.role !== undefined && input.role !== current.role),
        }),
      );
      await this.record(db, updated.role !== current.role ? 'user.role_changed' : 'user.updated', current, updated);
      return updated;
    });
    return this.announce('user.updated', user);
  }

  async remove(auth: AuthUser, id: number): Promise<void> {
    if (auth.id === id) throw badRequest('users.cannotDeleteSelf');
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const target = await this.find(users, id);
      if (target.role === 'admin' && (await users.countAdmins()) <= 1) throw conflict('users.lastAdmin');
      await users.delete(id);
      await this.record(db, 'user.deleted', target, null);
      return target;
    });
    this.announce('user.deleted', user);
  }

  /**
   * Changes the caller's own password; older tokens stop working, so the caller gets the user back to re-sign.
   * Wrong current passwords count like failed logins, so a stolen session cannot guess the password here instead.
   */
  async changePassword(auth: AuthUser, id: number, input: ChangePasswordDto, address: string): Promise<User> {
    if (auth.id !== id) throw forbidden('users.ownPasswordOnly');
    const waitMs = await this.limiter.waitFor(address, auth.username);
    if (waitMs > 0) throw tooManyRequests('auth.tooManyAttempts', Math.ceil(waitMs / 1000));
    const user = await this.find(this.users, id);
    if (!(await this.hasher.verify(user.passwordHash, input.currentPassword))) {
      await this.limiter.recordFailure(address, auth.username);
      throw badRequest('users.currentPasswordWrong');
    }
    const passwordHash = await this.hasher.hash(input.newPassword);
    return this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const updated = await users.update(id, { passwordHash, bumpTokenVersion: true });
      await this.record(db, 'user.password_changed', user, updated);
      return updated;
    });
  }

  /**
   * An account created at its first single sign-on: the provider's name made unique (`alice`, `alice2`, …), the
   * verified email unless another account has it, the role the provider maps to, and no usable password.
   */
  async createExternal(input: { username: string; email: string | null; role: Role }): Promise<User> {
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      let username = input.username;
      for (let n = 2; await users.usernameTaken(username); n += 1) username = `${input.username}${n}`;
      const email = input.email && !(await users.emailTaken(input.email)) ? input.email : null;
      const created = await this.insert(users, { username, email, passwordHash: NO_PASSWORD, role: input.role });
      // Created by a sign-in, not by someone signed in: the account itself is the actor.
      await this.record(db, 'user.created', null, created, { id: created.id, username: created.username });
      return created;
    });
    this.announce('user.created', user);
    return user;
  }

  /**
   * The role a provider's claim maps to, applied at sign-in; older tokens stop working. The last admin is never
   * demoted this way (the provider's groups may be wrong; Vigil must stay administrable).
   */
  async applyProviderRole(id: number, role: Role): Promise<User> {
    let changed = false;
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users, db) => {
      const current = await this.find(users, id);
      if (current.role === role || (current.role === 'admin' && (await users.countAdmins()) <= 1)) return current;
      changed = true;
      const updated = await users.update(id, { role, bumpTokenVersion: true });
      // The provider's claim changed the role at sign-in: no signed-in user did it.
      await this.record(db, 'user.role_changed', current, updated, null);
      return updated;
    });
    if (changed) this.announce('user.updated', user);
    return user;
  }

  /** The user behind a verified token, or null when it no longer exists. */
  findById(id: number): Promise<User | null> {
    return this.users.findById(id);
  }

  findByUsername(username: string): Promise<User | null> {
    return this.users.findByUsername(username);
  }

  countUsers(): Promise<number> {
    return this.users.count();
  }

  /** The account's change for the audit log: name, email and role as they are, the password only as changed. */
  private record(db: Sql, action: AuditEntry['action'], before: User | null, after: User | null, actor?: AuditEntry['actor']) {
    const user = (after ?? before)!;
    const changes = changesOf(before && accountSnapshot(before), after && accountSnapshot(after), (field, value) =>
      field === 'password' ? SECRET : value,
    );
    return this.audit.record(db, { action, target: { type: 'user', id: user.id, name: user.username }, changes, actor });
  }

  private assertSelfOrAdmin(auth: AuthUser, id: number): void {
    if (auth.role !== 'admin' && auth.id !== id) throw forbidden();
  }

  private async find(users: UsersRepository, id: number): Promise<User> {
    const user = await users.findById(id);
    if (!user) throw notFound('users.notFound');
    return user;
  }

  private async assertAvailable(users: UsersRepository, username?: string, email?: string | null, exceptId?: number) {
    if (username !== undefined && (await users.usernameTaken(username, exceptId))) throw conflict('auth.usernameExists');
    if (email && (await users.emailTaken(email, exceptId))) throw conflict('auth.emailExists');
  }

  private insert(users: UsersRepository, user: { username: string; email: string | null; passwordHash: string; role: Role }) {
    return this.write(() => users.insert(user));
  }

  /** A concurrent write can still win the unique index after our check: answer it as the same conflict. */
  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const field = uniqueViolation(error);
      if (field === 'username') throw conflict('auth.usernameExists');
      if (field === 'email') throw conflict('auth.emailExists');
      throw error;
    }
  }

  private announce(event: 'user.created' | 'user.updated' | 'user.deleted', user: User): UserDto {
    const dto = toUserDto(user);
    this.events.emit(event, { user: dto });
    return dto;
  }
}

/** The hash stands for the password: compared to see it changed, never recorded. */
const accountSnapshot = (user: User) => ({ username: user.username, email: user.email, role: user.role, password: user.passwordHash });
