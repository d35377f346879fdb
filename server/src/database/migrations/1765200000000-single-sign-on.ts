import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on with OpenID Connect: `user_identities` links an account to a provider's subject (one account may have
 * several; a subject links to one account). A sign-in in progress (state, nonce, PKCE verifier) is not stored: it rides
 * in a signed, httpOnly cookie between the redirect to the provider and its callback (sso/sso-cookie.ts).
 */
export class SingleSignOn1765200000000 implements MigrationInterface {
  name = 'SingleSignOn1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE user_identities (
        id            serial PRIMARY KEY,
        user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider      varchar(32) NOT NULL,
        subject       varchar(255) NOT NULL,
        email         varchar(254),
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_login_at timestamptz,
        CONSTRAINT user_identities_provider_subject_key UNIQUE (provider, subject)
      )`);
    await db.query(`CREATE INDEX user_identities_user_idx ON user_identities (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE user_identities`);
  }
}
