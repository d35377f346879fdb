import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryRow } from '../database/rows';

export interface IdentityRow {
  id: number;
  user_id: number;
}

/** Links between accounts and providers' subjects (`user_identities`). */
@Injectable()
export class IdentitiesRepository {
  constructor(private readonly db: DataSource) {}

  find(provider: string, subject: string): Promise<IdentityRow | null> {
    return queryRow<IdentityRow>(this.db, 'SELECT id, user_id FROM user_identities WHERE provider = $1 AND subject = $2', [
      provider,
      subject,
    ]);
  }

  /** The account whose email is this one (case-insensitive), for linking by a verified email. */
  async userIdByEmail(email: string): Promise<number | null> {
    const row = await queryRow<{ id: number }>(this.db, 'SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
    return row?.id ?? null;
  }

  /** Links the subject to the account; a concurrent sign-in that linked it first wins (the same account either way). */
  async link(userId: number, provider: string, subject: string, email: string | null): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO user_identities (user_id, provider, subject, email, last_login_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (provider, subject) DO NOTHING`,
      [userId, provider, subject, email],
    );
  }

  async touch(id: number, email: string | null): Promise<void> {
    await execute(this.db, 'UPDATE user_identities SET last_login_at = now(), email = coalesce($2, email) WHERE id = $1', [id, email]);
  }

  /** Whether an admin has an identity at one of these providers, so could sign in without a password. */
  async adminLinked(providers: string[]): Promise<boolean> {
    const row = await queryRow<{ linked: boolean }>(
      this.db,
      `SELECT EXISTS (
         SELECT 1 FROM user_identities i JOIN users u ON u.id = i.user_id WHERE u.role = 'admin' AND i.provider = ANY($1)
       ) AS linked`,
      [providers],
    );
    return row?.linked === true;
  }
}
