import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/** Mantine's styles for the components screens use beyond the frame's: one stylesheet, fetched with the first screen. */
const screenStyles = () => import('../app/styles/screens');

/**
 * A screen split off into its own chunk, rendered once both its chunk and the screens' stylesheet are in (fetched
 * side by side; the stylesheet only once). Every split-off screen goes through here, so none renders unstyled.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound for any component's props
export function lazyScreen<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => Promise.all([load(), screenStyles()]).then(([module]) => module));
}
