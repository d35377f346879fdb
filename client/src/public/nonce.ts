/**
 * The page's CSP nonce, from the `<meta property="csp-nonce">` the server fills in (as for the operator app): the
 * custom CSS's style element needs it, since the CSP allows no other inline style. The browser hides the attribute
 * after load, so it is read from the `nonce` property.
 */
export const cspNonce: string | undefined =
  typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
