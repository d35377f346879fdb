import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_PREFIX, type ApiKeyScope, type BrowserHandshakeAuth, type MessageCode } from '@vigil/proto';
import { secretHash } from '../agents/secrets';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { handshakeAddress, normalizeAddress, trustFunction, type TrustFunction } from '../common/client-address';
import { isCleanText } from '../common/text-rule';
import type { AuthUser } from '../common/decorators';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DisplayKeysService } from '../display-keys/display-keys.service';
import { CredentialLimiter } from './credential-limiter';
import { SessionService } from './session.service';

/** What a caller presented, resolved. Agents authenticate on their own namespace and routes (agents/), not here. */
export type Credential =
  | { kind: 'none' }
  | { kind: 'session'; user: AuthUser; token: string; expiresAt: number | null }
  | { kind: 'apiKey'; user: AuthUser; scope: ApiKeyScope }
  | { kind: 'display'; keyId: number }
  | { kind: 'refused'; status: 400 | 401 | 429; code: MessageCode; retryAfter?: number };

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/**
 * The one place a credential becomes a caller, for HTTP requests (the auth guard), browser sockets (the realtime
 * gateway) and agent sockets (the agent gateway): a session JWT or an API key (`Authorization: Bearer …`), a wall
 * screen's display key where the route allows one, or an agent's credential. What the caller may then do is decided by `authorize` (access.ts) from the route's decorators.
 */
@Injectable()
export class CredentialResolver {
  private readonly trust: TrustFunction;

  constructor(
    private readonly sessions: SessionService,
    private readonly apiKeys: ApiKeysService,
    private readonly displayKeys: DisplayKeysService,
    private readonly failures: CredentialLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trust = trustFunction(config.trustProxy);
  }

  /**
   * A request's credential. A display key (`X-Display-Key` header or `key` query) counts only where `displayKey` is
   * allowed and then wins over a bearer token, as a wall screen sends no session.
   */
  async fromRequest(request: Request, options: { displayKey: boolean }): Promise<Credential> {
    const address = normalizeAddress(request.ip);
    if (options.displayKey) {
      const header = request.headers['x-display-key'];
      const query = request.query?.key;
      const key = typeof header === 'string' ? header : query;
      if (key !== undefined) return this.display(key, address);
    }
    const token = bearerToken(request.headers.authorization);
    if (token === null) return { kind: 'none' };
    return token.startsWith(API_KEY_PREFIX) ? this.apiKey(token, address) : this.session(token);
  }

  /** A browser socket's handshake: a session token, a display key, or nothing (an anonymous visitor). Never an API key. */
  async fromHandshake(handshake: { auth?: unknown; address: string; headers: IncomingHttpHeaders }): Promise<Credential> {
    const auth = (handshake.auth ?? {}) as BrowserHandshakeAuth;
    const token = typeof auth.token === 'string' && auth.token !== '' ? auth.token : null;
    if (token === null && auth.displayKey !== undefined) return this.display(auth.displayKey, handshakeAddress(handshake, this.trust));
    if (token === null) return { kind: 'none' };
    // A key is for scripts; a live connection follows a signed-in person whose session can expire and be revoked.
    if (token.startsWith(API_KEY_PREFIX)) return { kind: 'refused', status: 401, code: 'apiKeys.socketRefused' };
    return this.session(token);
  }

  /**
   * An agent socket's credential, found by its hash through `find` (the agents' repository, which this module does not
   * own). Unknown ones count against the address, which is refused before any lookup once over the limit.
   */
  async fromAgentHandshake<A>(
    credential: unknown,
    address: string,
    find: (hash: string) => Promise<A | null>,
  ): Promise<
    { kind: 'agent'; agent: A } | { kind: 'refused'; code: 'agent.credentialInvalid' | 'agent.tooManyFailures'; retryAfter?: number }
  > {
    if (typeof credential !== 'string' || credential.length > 512) return { kind: 'refused', code: 'agent.credentialInvalid' };
    const retryAfter = await this.failures.retryAfter('agent', address);
    if (retryAfter > 0) return { kind: 'refused', code: 'agent.tooManyFailures', retryAfter };
    const agent = await find(secretHash(credential));
    if (agent) return { kind: 'agent', agent };
    await this.failures.failed('agent', address);
    return { kind: 'refused', code: 'agent.credentialInvalid' };
  }

  private async session(token: string): Promise<Credential> {
    const session = await this.sessions.resolveSession(token);
    if (!session) return { kind: 'refused', status: 401, code: 'auth.tokenInvalid' };
    return { kind: 'session', user: session.user, token, expiresAt: session.expiresAt };
  }

  /** One message for every bad key (malformed, unknown, expired, revoked); each one counts against the address. */
  private async apiKey(secret: string, address: string): Promise<Credential> {
    const retryAfter = await this.failures.retryAfter('apiKey', address);
    if (retryAfter > 0) return { kind: 'refused', status: 429, code: 'apiKeys.tooManyFailures', retryAfter };
    const holder = await this.apiKeys.resolve(secret);
    if (!holder) {
      await this.failures.failed('apiKey', address);
      return { kind: 'refused', status: 401, code: 'apiKeys.invalid' };
    }
    return {
      kind: 'apiKey',
      user: { id: holder.user_id, username: holder.username, role: holder.role, apiKeyId: holder.id, apiKeyScope: holder.scope },
      scope: holder.scope,
    };
  }

  private async display(key: unknown, address: string): Promise<Credential> {
    // Text no input may hold is a malformed request, as in any other query parameter, not a wrong key.
    if (typeof key === 'string' && !isCleanText(key)) return { kind: 'refused', status: 400, code: 'validation.textInvalid' };
    const verdict = await this.displayKeys.verify(key, address);
    if (verdict.ok) return { kind: 'display', keyId: verdict.id };
    return verdict.code === 'wall.tooManyFailures'
      ? { kind: 'refused', status: 429, code: verdict.code, retryAfter: verdict.retryAfter }
      : { kind: 'refused', status: 401, code: verdict.code };
  }
}
