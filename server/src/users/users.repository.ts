import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { Role } from '@vigil/proto';
import { execute } from '../database/rows';
import { User } from './user.entity';

export interface NewUser {
  username: string;
  email: string | null;
  passwordHash: string;
  role: Role;
}

export type UserChanges = Partial<Pick<User, 'username' | 'email' | 'passwordHash' | 'role'>> & { bumpTokenVersion?: boolean };

/** Which unique index a failed write hit, if any. */
export function uniqueViolation(error: unknown): 'username' | 'email' | null {
  if (!(error instanceof QueryFailedError)) return null;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  if (code !== '23505') return null;
  if (constraint === 'users_username_key') return 'username';
  if (constraint === 'users_email_key') return 'email';
  return null;
}

@Injectable()
export class UsersRepository {
  private manager: EntityManager;

  constructor(private readonly dataSource: DataSource) {
    this.manager = dataSource.manager;
  }

  /**
   * Runs `work` in one transaction holding an advisory lock, so user-count rules cannot race; `db` is the transaction
   * for what commits with the change (its audit entry).
   */
  transaction<T>(lockKey: number, work: (users: UsersRepository, db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await execute(manager, 'SELECT pg_advisory_xact_lock($1)', [lockKey]);
      const scoped = Object.create(UsersRepository.prototype) as UsersRepository;
      Object.assign(scoped, { dataSource: this.dataSource, manager });
      return work(scoped, manager);
    });
  }

  findById(id: number): Promise<User | null> {
    return this.manager.findOneBy(User, { id });
  }

  findByUsername(username: string): Promise<User | null> {
    return this.manager.createQueryBuilder(User, 'u').where('lower(u.username) = lower(:username)', { username }).getOne();
  }

  async usernameTaken(username: string, exceptId = 0): Promise<boolean> {
    return this.manager
      .createQueryBuilder(User, 'u')
      .where('lower(u.username) = lower(:username) AND u.id <> :exceptId', { username, exceptId })
      .getExists();
  }

  async emailTaken(email: string, exceptId = 0): Promise<boolean> {
    return this.manager
      .createQueryBuilder(User, 'u')
      .where('lower(u.email) = lower(:email) AND u.id <> :exceptId', { email, exceptId })
      .getExists();
  }

  count(): Promise<number> {
    return this.manager.count(User);
  }

  countAdmins(): Promise<number> {
    return this.manager.countBy(User, { role: 'admin' });
  }

  list(page: number, pageSize: number, search?: string): Promise<[User[], number]> {
    const query = this.manager
      .createQueryBuilder(User, 'u')
      .orderBy('u.id', 'ASC')
      .skip((page - 1) * pageSize)
      .take(pageSize);
    if (search) {
      query.where('(u.username ILIKE :pattern OR u.email ILIKE :pattern)', {
        pattern: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    return query.getManyAndCount();
  }

  insert(user: NewUser): Promise<User> {
    return this.manager.save(User, this.manager.create(User, user));
  }

  async update(id: number, changes: UserChanges): Promise<User> {
    const { bumpTokenVersion, ...fields } = changes;
    await this.manager
      .createQueryBuilder()
      .update(User)
      .set({ ...fields, updatedAt: () => 'now()', ...(bumpTokenVersion ? { tokenVersion: () => 'token_version + 1' } : {}) })
      .where('id = :id', { id })
      .execute();
    return (await this.findById(id))!;
  }

  async delete(id: number): Promise<void> {
    await this.manager.delete(User, { id });
  }
}
