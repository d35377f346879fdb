import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { ProbeFailure } from '../../checkers/failure';

/** Flags for a headless Chromium that runs as root in a container and reaches nothing on its own (updates, sync). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  // WebRTC could reach addresses no route sees: keep its connections to proxied (none) ones.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];
/** Launching a cold Chromium takes a second or two; a broken one must not hold checks longer than this. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * One Chromium process shared by every browser check (a fresh context each, so no cookie or cache is shared), started
 * on the first check and again after a crash, and a small pool of slots: at most `concurrency` pages load at once
 * (each costs tens of MB and most of a core while it renders); checks beyond it wait within their own timeout.
 */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: { chromiumPath: string; concurrency: number }) {}

  /** How many checks hold a slot now. */
  get busy(): number {
    return this.inFlight;
  }

  /** Waits for a free slot; resolves with its release, rejects with the signal's reason when it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', abort);
        this.inFlight += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.inFlight -= 1;
          this.waiting.shift()?.();
        });
      };
      const abort = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      if (this.inFlight < this.options.concurrency) grant();
      else this.waiting.push(grant);
    });
  }

  /** The shared browser, launched if none runs; a missing or broken Chromium is one ProbeFailure naming it. */
  chromium(): Promise<Browser> {
    if (!this.browser) {
      const launching = this.launch();
      this.browser = launching;
      launching.then(
        (browser) => browser.on('disconnected', () => this.browser === launching && (this.browser = null)),
        () => this.browser === launching && (this.browser = null),
      );
    }
    return this.browser;
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.then((running) => running.close()).catch(() => undefined);
  }

  private async launch(): Promise<Browser> {
    const path = this.options.chromiumPath;
    try {
      await access(path, constants.X_OK);
    } catch {
      throw new ProbeFailure(`Chromium is not installed at ${path} (install Debian's chromium package or set CHROMIUM_PATH)`);
    }
    try {
      return await chromium.launch({ executablePath: path, headless: true, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS });
    } catch (error) {
      const first = ((error as Error).message ?? '').split('\n')[0].slice(0, 200);
      throw new ProbeFailure(`Chromium at ${path} failed to start: ${first}`);
    }
  }
}
