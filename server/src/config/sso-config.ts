import { ConfigError } from './config';

/** One OpenID Connect provider people may sign in with (`OIDC_<ID>_*`). */
export interface OidcProviderConfig {
  /** Lowercase id from `OIDC_PROVIDERS`, in URLs (`/api/auth/sso/<id>/start`) and in `user_identities.provider`. */
  id: string;
  /** Label of the "Sign in with …" button. */
  name: string;
  /** Issuer URL; its `/.well-known/openid-configuration` is read on first use. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only, no client authentication). */
  clientSecret: string | null;
  /** Always includes `openid`. */
  scopes: string[];
  /** Lowercase email domains allowed to sign in; empty: any. A non-empty list needs a verified email. */
  allowedDomains: string[];
  /** Claim holding groups or roles (a string or a list of strings), mapped to Vigil roles at every sign-in. */
  roleClaim: string | null;
  adminValues: string[];
  viewerValues: string[];
  /** Create an account on the first sign-in of someone no account is linked to. */
  autoCreate: boolean;
}

export interface SsoConfig {
  providers: OidcProviderConfig[];
  /** Accept `http://` issuers (a provider on loopback in development and tests); real ones are https only. */
  allowHttp: boolean;
}

type Env = Record<string, string | undefined>;

const PROVIDER_ID = /^[a-z0-9]{1,32}$/;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function list(env: Env, name: string): string[] {
  return (read(env, name) ?? '').split(/[\s,]+/).filter(Boolean);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function required(env: Env, name: string): string {
  const value = read(env, name);
  if (value === undefined) throw new ConfigError(`${name} is required for the provider named in OIDC_PROVIDERS`);
  return value;
}

function provider(env: Env, id: string, allowHttp: boolean): OidcProviderConfig {
  const prefix = `OIDC_${id.toUpperCase()}_`;
  const issuer = required(env, `${prefix}ISSUER`);
  let parsed: URL;
  try {
    parsed = new URL(issuer);
  } catch {
    throw new ConfigError(`${prefix}ISSUER must be a URL (got "${issuer}")`);
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) {
    throw new ConfigError(`${prefix}ISSUER must start with https:// (http:// only with OIDC_ALLOW_HTTP=true)`);
  }
  const scopes = list(env, `${prefix}SCOPES`);
  const domains = list(env, `${prefix}ALLOWED_DOMAINS`).map((domain) => domain.replace(/^@/, '').toLowerCase());
  for (const domain of domains) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) {
      throw new ConfigError(`${prefix}ALLOWED_DOMAINS must list email domains like example.com (got "${domain}")`);
    }
  }
  const roleClaim = read(env, `${prefix}ROLE_CLAIM`) ?? null;
  const adminValues = list(env, `${prefix}ADMIN_VALUES`);
  const viewerValues = list(env, `${prefix}VIEWER_VALUES`);
  if (!roleClaim && (adminValues.length || viewerValues.length)) {
    throw new ConfigError(`${prefix}ADMIN_VALUES and ${prefix}VIEWER_VALUES need ${prefix}ROLE_CLAIM`);
  }
  const name = read(env, `${prefix}NAME`) ?? id;
  if (name.length > 64) throw new ConfigError(`${prefix}NAME must be at most 64 characters`);
  return {
    id,
    name,
    issuer,
    clientId: required(env, `${prefix}CLIENT_ID`),
    clientSecret: read(env, `${prefix}CLIENT_SECRET`) ?? null,
    scopes: [...new Set(['openid', ...(scopes.length ? scopes : ['email', 'profile'])])],
    allowedDomains: [...new Set(domains)],
    roleClaim,
    adminValues,
    viewerValues,
    autoCreate: flag(env, `${prefix}AUTO_CREATE`, false),
  };
}

/** `OIDC_PROVIDERS=corp,google` and each one's `OIDC_<ID>_*` variables; no providers: single sign-on is off. */
export function loadSsoConfig(env: Env): SsoConfig {
  const allowHttp = flag(env, 'OIDC_ALLOW_HTTP', false);
  const ids = list(env, 'OIDC_PROVIDERS').map((id) => id.toLowerCase());
  for (const id of ids) {
    if (!PROVIDER_ID.test(id)) throw new ConfigError(`OIDC_PROVIDERS must list ids of 1 to 32 letters or digits (got "${id}")`);
  }
  if (new Set(ids).size !== ids.length) throw new ConfigError('OIDC_PROVIDERS names a provider twice');
  return { providers: ids.map((id) => provider(env, id, allowHttp)), allowHttp };
}
