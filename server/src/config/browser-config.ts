import { ConfigError } from './config';

/** What browsers are told about embedding the app and about the status page's external images and fonts. */
export interface BrowserConfig {
  /** CSP `frame-ancestors` sources of the wall and status pages: `'self'`, `'none'` or origins. */
  frameAncestors: string[];
  /**
   * Origins the status page's logo and custom CSS may load images and fonts from, besides this server and data:
   * (`STATUS_ASSET_ORIGINS`, plus `PUBLIC_URL`'s origin, which is this server under another name).
   */
  assetOrigins: string[];
}

type Env = Record<string, string | undefined>;

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)`;
const ORIGIN = new RegExp(String.raw`^https?://${HOST}(?::\d{1,5})?$`, 'i');
const WILDCARD_ORIGIN = new RegExp(String.raw`^https?://(?:\*\.)?${HOST}(?::\d{1,5})?$`, 'i');

function list(env: Env, name: string): string[] {
  return (env[name] ?? '').split(/[\s,]+/).filter(Boolean);
}

/** `FRAME_ANCESTORS`: `'self'` (default), `'none'`, or `'self'` and/or origins such as `https://noc.example.com`. */
function frameAncestors(env: Env): string[] {
  const tokens = list(env, 'FRAME_ANCESTORS').map((token) => {
    const bare = token.replace(/^'(self|none)'$/i, '$1').toLowerCase();
    if (bare === 'self' || bare === 'none') return `'${bare}'`;
    if (!WILDCARD_ORIGIN.test(token)) {
      throw new ConfigError(`FRAME_ANCESTORS must list 'self', 'none' or origins like https://noc.example.com (got "${token}")`);
    }
    return token.toLowerCase();
  });
  if (tokens.includes("'none'") && tokens.length > 1)
    throw new ConfigError(`FRAME_ANCESTORS: 'none' cannot be combined with other sources`);
  return tokens.length ? [...new Set(tokens)] : ["'self'"];
}

/** `STATUS_ASSET_ORIGINS`: exact origins (scheme, host, optional port), no paths and no wildcards. */
function assetOrigins(env: Env, publicUrl: string | null): string[] {
  const origins = list(env, 'STATUS_ASSET_ORIGINS').map((token) => {
    if (!ORIGIN.test(token.replace(/\/$/, ''))) {
      throw new ConfigError(`STATUS_ASSET_ORIGINS must list origins like https://cdn.example.com (got "${token}")`);
    }
    return new URL(token).origin;
  });
  return [...new Set([...origins, ...(publicUrl ? [new URL(publicUrl).origin] : [])])];
}

export function loadBrowserConfig(env: Env, publicUrl: string | null): BrowserConfig {
  return { frameAncestors: frameAncestors(env), assetOrigins: assetOrigins(env, publicUrl) };
}
