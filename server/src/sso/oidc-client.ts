import { Inject, Injectable } from '@nestjs/common';
import type { MessageCode } from '@vigil/proto';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { OidcProviderConfig } from '../config/sso-config';
import type { ProviderClaims } from './identity-rules';

// openid-client is an ES module: the CommonJS build loads it with import(), once.
type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
type Configuration = import('openid-client', { with: { 'resolution-mode': 'import' } }).Configuration;
let library: Promise<OpenIdClient> | undefined;
const openIdClient = (): Promise<OpenIdClient> => (library ??= import('openid-client'));

/** Why a sign-in failed: the message code the visitor sees, and a detail for the log (never a secret). */
export class SsoFailure extends Error {
  constructor(
    readonly code: MessageCode,
    detail: string,
  ) {
    super(detail);
  }
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Talks OpenID Connect to the configured providers (discovery, authorization URL, code exchange) through openid-client. */
@Injectable()
export class OidcClient {
  /** Each provider's discovered metadata; a failed discovery is forgotten so the next sign-in tries again. */
  private readonly configurations = new Map<string, Promise<Configuration>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async authorizationRequest(provider: OidcProviderConfig, redirectUri: string): Promise<AuthorizationRequest> {
    const [oidc, configuration] = await Promise.all([openIdClient(), this.configuration(provider)]);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(' '),
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /**
   * Exchanges the callback's code and answers the validated claims: the ID token's (issuer, audience, expiry, nonce
   * and its signature against the provider's JWKS all checked), completed by the userinfo endpoint's for the same
   * subject where the provider has one.
   */
  async exchange(
    provider: OidcProviderConfig,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderClaims> {
    const [oidc, configuration] = await Promise.all([openIdClient(), this.configuration(provider)]);
    let tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
        throw new SsoFailure('sso.providerError', `the provider refused: ${error.error}`);
      }
      throw new SsoFailure('sso.tokenInvalid', `the answer did not validate: ${(error as Error).message}`);
    }
    const idClaims = tokens.claims();
    if (!idClaims || typeof idClaims.sub !== 'string') throw new SsoFailure('sso.tokenInvalid', 'no ID token subject');
    let userInfo: Record<string, unknown> = {};
    if (tokens.access_token && configuration.serverMetadata().userinfo_endpoint) {
      try {
        userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      } catch (error) {
        throw new SsoFailure('sso.providerError', `userinfo failed: ${(error as Error).message}`);
      }
    }
    // The ID token's claims win: they are the signed ones.
    return { ...userInfo, ...idClaims, sub: idClaims.sub };
  }

  private configuration(provider: OidcProviderConfig): Promise<Configuration> {
    let pending = this.configurations.get(provider.id);
    if (!pending) {
      pending = this.discover(provider);
      this.configurations.set(provider.id, pending);
      pending.catch(() => this.configurations.delete(provider.id));
    }
    return pending;
  }

  private async discover(provider: OidcProviderConfig): Promise<Configuration> {
    const oidc = await openIdClient();
    const execute = [oidc.enableNonRepudiationChecks, ...(this.config.sso.allowHttp ? [oidc.allowInsecureRequests] : [])];
    try {
      return await oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        provider.clientSecret ?? undefined,
        provider.clientSecret ? undefined : oidc.None(),
        { execute, timeout: 10 },
      );
    } catch (error) {
      throw new SsoFailure('sso.unavailable', `discovery at ${provider.issuer} failed: ${(error as Error).message}`);
    }
  }
}
