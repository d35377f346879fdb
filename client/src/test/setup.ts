import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import i18n from '../i18n';
import enUS from '../i18n/locales/en-US.json';
import zhCN from '../i18n/locales/zh-CN.json';
import { clearLiveCache } from '../live/cache';

// findBy*/waitFor give up after 1 s by default: on a loaded 2-core CI a render can take longer than that, which is
// the machine's pace, not a failure. A real failure still fails, after 5 s.
configure({ asyncUtilTimeout: 5_000 });

// The app fetches the active language's dictionary on its own (i18n/index.ts); tests hold both from the start, so a
// render after `changeLanguage` is translated at once.
i18n.addResourceBundle('en-US', 'translation', enUS);
i18n.addResourceBundle('zh-CN', 'translation', zhCN);

// jsdom lacks the layout APIs Mantine reads (color scheme media query, element resize observation).
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;

// Mantine's autosize textarea re-measures when web fonts load; jsdom has no FontFaceSet.
Object.defineProperty(document, 'fonts', {
  configurable: true,
  value: { addEventListener: vi.fn(), removeEventListener: vi.fn(), ready: Promise.resolve() },
});

Object.defineProperty(window, 'scrollTo', { writable: true, value: vi.fn() });
Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', { writable: true, value: vi.fn() });

afterEach(() => {
  cleanup();
  localStorage.clear();
  clearLiveCache();
});
