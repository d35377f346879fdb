/** Rules the browser side of the app shares with the server: framing and where status page assets may come from. */

/** Display pages an admin may let other sites embed (`FRAME_ANCESTORS`); every other page is same-origin only. */
const EMBEDDABLE_PATHS: readonly string[] = ['/wall', '/status'];

export function isEmbeddablePath(path: string): boolean {
  return EMBEDDABLE_PATHS.includes(path.length > 1 ? path.replace(/\/+$/, '') : path);
}

/** Image types a data: logo may carry (all are inert inside an `<img>`). */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif|svg\+xml|x-icon|vnd\.microsoft\.icon)[;,]/i;
const BASE = 'https://vigil.invalid/';

/** Where an address used by the status page (logo, CSS `url()`) points: this server, data:, another origin, or nowhere valid. */
export type AssetSource = { kind: 'self' } | { kind: 'data'; image: boolean } | { kind: 'external'; origin: string } | null;

/** Classifies an address the way the browser will resolve it (relative and protocol-relative forms included). */
export function assetSource(value: string): AssetSource {
  let url: URL;
  try {
    url = new URL(value.trim(), BASE);
  } catch {
    return null;
  }
  if (url.protocol === 'data:') return { kind: 'data', image: DATA_IMAGE.test(url.href) };
  if (url.origin === new URL(BASE).origin) return { kind: 'self' };
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'external', origin: url.origin };
  return null;
}

/** The logo's shape before any origin rule: a path on this server, a data: image, or an http(s) address. */
export function isLogoAddress(value: string): boolean {
  const source = assetSource(value);
  return source !== null && (source.kind !== 'data' || source.image);
}
