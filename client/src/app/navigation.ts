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
