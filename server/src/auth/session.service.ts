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
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const user = await this.users.findById(claims.sub);
    if (!user || user.tokenVersion !== claims.ver) return null;
    return { id: user.id, username: user.username, role: user.role };
  }
}
