import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { SsoProvidersResponse } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { AuditLog } from '../audit/audit-log.service';
import { TokenService } from '../auth/token.service';
import type { Payload } from '../common/reply';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { OidcProviderConfig } from '../config/sso-config';
import { SettingsRepository } from '../settings/settings.repository';
import type { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { IdentitiesRepository } from './identities.repository';
import { claimedEmail, domainAllowed, mappedRole, ProviderClaims, usernameBase, verifiedEmail } from './identity-rules';
import { OidcClient, SsoFailure } from './oidc-client';
import { PasswordSignInPolicy } from './password-sign-in.policy';
import { openPendingSignIn, sealPendingSignIn, SSO_COOKIE_SECONDS } from './sso-cookie';

/** Single sign-on: sends visitors to a provider and turns its answer into a Vigil session for a linked account. */
@Injectable()
export class SsoService implements OnModuleInit {
  private readonly logger = new Logger(SsoService.name);
  /** Signs the pending sign-in cookie; generated once into `settings`, so every instance accepts every cookie. */
  private cookieKey: Buffer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcClient,
    private readonly identities: IdentitiesRepository,
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly settings: SettingsRepository,
    private readonly passwordSignIn: PasswordSignInPolicy,
    private readonly audit: AuditLog,
  ) {}

  async onModuleInit(): Promise<void> {
    const key = await this.settings.getOrCreate('sso_cookie_key', randomBytes(32).toString('base64url'));
    this.cookieKey = Buffer.from(key, 'base64url');
  }

  async providers(): Promise<Payload<SsoProvidersResponse>> {
    return {
      providers: this.config.sso.providers.map(({ id, name }) => ({ id, name })),
      passwordLoginDisabled: await this.passwordSignIn.disabled(),
    };
  }

  /** Where to send the visitor, and the sealed pending sign-in for the cookie. */
  async start(providerId: string, origin: string): Promise<{ location: string; cookie: string }> {
    const provider = this.provider(providerId);
    const redirectUri = `${this.config.publicUrl ?? origin}/api/auth/sso/${provider.id}/callback`;
    const request = await this.oidc.authorizationRequest(provider, redirectUri);
    const cookie = sealPendingSignIn(this.cookieKey, {
      provider: provider.id,
      state: request.state,
      nonce: request.nonce,
      codeVerifier: request.codeVerifier,
      redirectUri,
      expiresAt: Math.floor(Date.now() / 1000) + SSO_COOKIE_SECONDS,
    });
    return { location: request.url, cookie };
  }

  /** The session token for the account the provider's answer signs in; a `SsoFailure` for anything refused. */
  async callback(providerId: string, query: URLSearchParams, cookie: string | undefined): Promise<string> {
    const provider = this.provider(providerId);
    const pending = openPendingSignIn(this.cookieKey, cookie);
    if (!pending || pending.provider !== provider.id) throw new SsoFailure('sso.stateInvalid', 'no valid pending sign-in in this browser');
    if (query.get('error')) throw new SsoFailure('sso.providerError', `the provider answered ${query.get('error')!.slice(0, 64)}`);
    // The state is compared here and again by openid-client; a mismatch is someone else's callback.
    if (query.get('state') !== pending.state) throw new SsoFailure('sso.stateInvalid', 'the state does not match this browser');
    const callbackUrl = new URL(pending.redirectUri);
    callbackUrl.search = query.toString();
    const claims = await this.oidc.exchange(provider, callbackUrl, pending);
    if (!domainAllowed(provider, claims)) throw new SsoFailure('sso.domainRefused', `email domain not allowed (subject ${claims.sub})`);
    const user = await this.account(provider, claims);
    await this.audit.recordAlone({
      action: 'auth.login_succeeded',
      actor: { id: user.id, username: user.username },
      target: { type: 'user', id: user.id, name: user.username },
      changes: { provider: { after: provider.id } },
    });
    return this.tokens.issue(user);
  }

  /** The linked account, else the one of the verified email (now linked), else a new one where the provider allows. */
  private async account(provider: OidcProviderConfig, claims: ProviderClaims): Promise<User> {
    const email = verifiedEmail(claims);
    const role = mappedRole(provider, claims);
    const identity = await this.identities.find(provider.id, claims.sub);
    let user: User | null;
    if (identity) {
      user = await this.users.findById(identity.user_id);
      await this.identities.touch(identity.id, email);
    } else {
      const linkedId = email ? await this.identities.userIdByEmail(email) : null;
      if (linkedId !== null) {
        user = await this.users.findById(linkedId);
      } else {
        const claimed = claimedEmail(claims);
        if (claimed && !email && (await this.identities.userIdByEmail(claimed)) !== null) {
          throw new SsoFailure(
            'sso.emailNotVerified',
            `an account has this email but the provider has not verified it (subject ${claims.sub})`,
          );
        }
        if (!provider.autoCreate) throw new SsoFailure('sso.noAccount', `no account is linked to subject ${claims.sub}`);
        user = await this.users.createExternal({ username: usernameBase(claims), email, role: role ?? 'user' });
      }
      if (user) await this.identities.link(user.id, provider.id, claims.sub, email);
    }
    if (!user) throw new SsoFailure('sso.noAccount', `the account of subject ${claims.sub} no longer exists`);
    if (role && role !== user.role) user = await this.users.applyProviderRole(user.id, role);
    return user;
  }

  private provider(id: string): OidcProviderConfig {
    const provider = this.config.sso.providers.find((candidate) => candidate.id === id);
    if (!provider) throw new SsoFailure('sso.unknownProvider', `no provider named ${id.slice(0, 32)}`);
    return provider;
  }
}
