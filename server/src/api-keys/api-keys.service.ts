import { Injectable } from '@nestjs/common';
import { API_KEY_LIMITS, API_KEY_PREFIX, scopesForRole, type ApiKeyDto, type CreateApiKeyRequest } from '@vigil/proto';
import { createHash, randomBytes } from 'node:crypto';
import { conflict, forbidden, notFound } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { AuditLog } from '../audit/audit-log.service';
import { ApiKeysRepository, type ApiKeyHolder, type ApiKeyRow } from './api-keys.repository';

/** SHA-256 of a key: keys are 32 random bytes, so a slow password hash would add cost and no safety. */
export const hashApiKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Characters of the key kept to recognise it in lists: the prefix and 8 random characters (48 of 256 bits). */
const SHOWN = API_KEY_PREFIX.length + 8;

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

function toDto(row: ApiKeyRow): ApiKeyDto {
  const expired = row.expires_at !== null && new Date(row.expires_at).getTime() <= Date.now();
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    state: row.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    owner: { id: row.user_id, username: row.username },
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
  };
}

/**
 * API keys for scripts and scrapers: a long random `vgk_…` secret shown once, stored as its SHA-256, acting with its
 * owner's current role within its scope (the auth guard decides that). Users manage their own keys; admins see and
 * revoke everyone's.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly audit: AuditLog,
  ) {}

  async list(auth: AuthUser): Promise<ApiKeyDto[]> {
    return (await this.keys.list(auth.role === 'admin' ? null : auth.id)).map(toDto);
  }

  async create(auth: AuthUser, input: CreateApiKeyRequest): Promise<{ key: ApiKeyDto; secret: string }> {
    if (!scopesForRole(auth.role).includes(input.scope)) throw forbidden('apiKeys.scopeNotAllowed');
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.audit.transaction(async (db, record) => {
      const created = await this.keys.insert(
        db,
        {
          userId: auth.id,
          name: input.name,
          prefix: secret.slice(0, SHOWN),
          hash: hashApiKey(secret),
          scope: input.scope,
          expiresInDays: input.expiresInDays ?? null,
        },
        API_KEY_LIMITS.perUserMax,
      );
      if (created) {
        const changes = { scope: { after: created.scope }, expires_at: { after: created.expires_at?.toISOString() ?? null } };
        await record({ action: 'api_key.created', target: { type: 'api_key', id: created.id, name: created.name }, changes });
      }
      return created;
    });
    if (!row) throw conflict('apiKeys.tooMany');
    return { key: toDto(row), secret };
  }

  /** Own keys; an admin's any. Takes effect at the next request on every instance: keys are read per request. */
  async revoke(auth: AuthUser, id: number): Promise<void> {
    const revoked = await this.audit.transaction(async (db, record) => {
      const key = await this.keys.revoke(db, id, auth.role === 'admin' ? null : auth.id);
      if (key) await record({ action: 'api_key.revoked', target: { type: 'api_key', id: key.id, name: key.name } });
      return key;
    });
    if (!revoked) throw notFound('apiKeys.notFound');
  }

  /**
   * The live key `secret` names and its owner, or null. Every refusal (malformed, unknown, expired, revoked) runs the
   * same steps, hash and one indexed lookup, with no early exit for a malformed key. The database compares hashes,
   * never the secret, so how long a comparison takes tells nothing about the key.
   */
  resolve(secret: string): Promise<ApiKeyHolder | null> {
    return this.keys.use(hashApiKey(secret));
  }
}
