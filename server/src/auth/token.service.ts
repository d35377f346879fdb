import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config';
import { SettingsRepository } from '../settings/settings.repository';
import type { User } from '../users/user.entity';

export interface TokenClaims {
  sub: number;
  /** The user's token version when it was issued. */
  ver: number;
  /** When the token expires, in seconds since the epoch (set by signing, from JWT_EXPIRES_IN). */
  exp?: number;
}

/** Issues and checks session tokens with the configured secret, or the one generated for this install. */
@Injectable()
export class TokenService implements OnModuleInit {
  private jwt: JwtService;
  private key: KeyObject;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    // Stored in the database, not on disk, so every instance sharing the database signs with the same key.
    const secret = this.config.jwtSecret ?? (await this.settings.getOrCreate('jwt_secret', randomBytes(48).toString('base64url')));
    // A key object, not the text: given text, jsonwebtoken first tries to read it as a PEM public key on every verify,
    // and that failed parse cost 0.7 ms of CPU per signed-in request.
    const key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.key = key;
    this.jwt = new JwtService({ secret: key, signOptions: { expiresIn: this.config.jwtExpiresIn as `${number}d` } });
  }

  issue(user: User): Promise<string> {
    return this.jwt.signAsync({ sub: user.id, ver: user.tokenVersion } satisfies TokenClaims);
  }

  /**
   * An HMAC-SHA256 (base64url) of `data` with the server's secret, under a purpose of its own so that nothing signed
   * for one use (a status page's unlock cookie) ever verifies as another or as a session token.
   */
  mac(purpose: string, data: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${data}`).digest('base64url');
  }

  /** The claims of a valid, unexpired token; null for anything else. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: ['HS256'] });
      return Number.isInteger(claims.sub) && Number.isInteger(claims.ver) ? claims : null;
    } catch {
      return null;
    }
  }
}
