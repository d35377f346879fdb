import { type ReactElement, type ReactNode, Suspense, useState } from 'react';

export interface TriggerEvents {
  onPointerEnter: () => void;
  onClick: () => void;
}

interface DeferredMenuProps {
  /** The menu's button, drawn alone until the menu is first opened (the loaded menu draws the same button). */
  trigger: (events: TriggerEvents) => ReactElement;
  /** Starts fetching the menu's chunk (the pointer reached the button: a press is likely). */
  preload: () => unknown;
  /** The loaded menu (a lazy component), open from its first render. */
  menu: () => ReactNode;
}

/**
 * A navbar menu whose code (Mantine's Menu and the positioning library under it) is fetched when first wanted: the
 * pointer reaching its button starts the download, the first press renders the menu open. The first screen does not
 * carry it.
 */
export function DeferredMenu({ trigger, preload, menu }: DeferredMenuProps) {
  const [pressed, setPressed] = useState(false);
  const alone = trigger({ onPointerEnter: () => void preload(), onClick: () => setPressed(true) });
  if (!pressed) return alone;
  return <Suspense fallback={alone}>{menu()}</Suspense>;
}
