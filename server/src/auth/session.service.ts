import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/decorators';
import { UsersService } from '../users/users.service';
import { TokenService } from './token.service';

/** Turns a bearer token into the caller, for HTTP requests and sockets alike. */
@Injectable()
export class SessionService {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersService,
  ) {}

  /**
   * Null when the token is bad, expired, of a deleted user, or issued before a password or role change. The user is
   * read on every call so a demotion or deletion takes effect at once.
   */
  async resolve(token: string): Promise<AuthUser | null> {
    return (await this.resolveSession(token))?.user ?? null;
  }

  /** As `resolve`, with when the token expires (ms since the epoch), for a connection that outlives one request. */
  async resolveSession(token: string): Promise<{ user: AuthUser; expiresAt: number | null } | null> {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const user = await this.users.findById(claims.sub);
    if (!user || user.tokenVersion !== claims.ver) return null;
    const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null;
    return { user: { id: user.id, username: user.username, role: user.role }, expiresAt };
  }
}
