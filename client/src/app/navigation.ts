/**
 * Lets code outside React (the API client, the auth store) change the route. The router registers its navigate
 * function on mount; before that, a full page load is the only way to move.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

export function registerNavigator(navigate: Navigate | null): void {
  navigator = navigate;
}

export function navigateTo(path: string, options: { replace?: boolean } = {}): void {
  if (navigator) navigator(path, options);
  else window.location.assign(path);
}

let loginRedirectHolds = 0;

/**
 * Keeps a screen that needs no session (a wall opened with a display key) on screen when a stale session ends
 * elsewhere: while held, an expired token clears the session without sending the browser to /login.
 */
export function holdLoginRedirect(): () => void {
  loginRedirectHolds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    loginRedirectHolds -= 1;
  };
}

export function loginRedirectHeld(): boolean {
  return loginRedirectHolds > 0;
}
