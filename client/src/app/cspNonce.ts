import { setNonce } from 'get-nonce';

/**
 * The page's CSP nonce, from the `<meta property="csp-nonce">` the server fills in. Style elements created at run
 * time (Mantine's, react-remove-scroll's, the status page's custom CSS) carry it, since the CSP allows no other
 * inline style element. The browser hides the attribute after load, so it is read from the `nonce` property.
 */
export const cspNonce: string | undefined =
  typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

/** Hands the nonce to the libraries that create style elements themselves (react-remove-scroll via get-nonce). */
export function shareCspNonce(): void {
  if (cspNonce) setNonce(cspNonce);
}

export const getStyleNonce = (): string => cspNonce ?? '';
