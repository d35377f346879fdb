import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_DEFAULT, Role, UserDto, UsersPageResponse } from '@vigil/proto';
import { LoginLimiter } from '../auth/login-limiter';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { DomainEvents } from '../events/domain-events.service';
import { SettingsService } from '../settings/settings.service';
import { PasswordHasher } from './password-hasher';
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
  ) {}

  /**
   * Self-registration: the very first account becomes the admin; later ones need registration switched on. Whether
   * it may succeed (open, name and address free) is decided before the password is hashed, so a refused attempt costs
   * two reads, not an argon2id computation; the transaction decides again, as a concurrent one may have won.
   */
  async register(input: { username: string; email: string; password: string }): Promise<UserDto> {
    const { allowRegistration } = await this.settings.read();
    const mayRegister = async (users: UsersRepository): Promise<boolean> => {
      const first = (await users.count()) === 0;
      if (!first && !allowRegistration) throw forbidden('auth.registrationClosed');
      await this.assertAvailable(users, input.username, input.email);
      return first;
    };
    await mayRegister(this.users);
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users) => {
      const first = await mayRegister(users);
      return this.insert(users, { ...input, passwordHash, role: first ? 'admin' : 'user' });
    });
    return this.announce('user.created', user);
  }

  async create(input: CreateUserDto): Promise<UserDto> {
    const email = input.email ?? null;
    await this.assertAvailable(this.users, input.username, email);
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.insert(this.users, { username: input.username, email, passwordHash, role: input.role ?? 'user' });
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
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users) => {
      const current = await this.find(users, id);
      if (current.role === 'admin' && input.role === 'user' && (await users.countAdmins()) <= 1) {
        throw conflict('users.lastAdmin');
      }
      if (self && input.role !== undefined && input.role !== current.role) throw forbidden('users.ownRole');
      await this.assertAvailable(users, input.username, input.email, id);
      return this.write(() =>
        users.update(id, {
          username: input.username,
          email: input.email,
          role: input.role,
          passwordHash,
          bumpTokenVersion: passwordHash !== undefined || (input.role !== undefined && input.role !== current.role),
        }),
      );
    });
    return this.announce('user.updated', user);
  }

  async remove(auth: AuthUser, id: number): Promise<void> {
    if (auth.id === id) throw badRequest('users.cannotDeleteSelf');
    const user = await this.users.transaction(USER_COUNT_LOCK, async (users) => {
      const target = await this.find(users, id);
      if (target.role === 'admin' && (await users.countAdmins()) <= 1) throw conflict('users.lastAdmin');
      await users.delete(id);
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
    return this.users.update(id, { passwordHash: await this.hasher.hash(input.newPassword), bumpTokenVersion: true });
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
