import type { PageItemEvent } from '@vigil/proto';
import { STATUS_PAGE_LIMITS } from '@vigil/proto/status-pages';
import { pageApi, PageError } from './api';
import { type GroupRead, initialPageState, isGroupOpen, type PageState, withItem } from './pageState';

/** A burst of "read again" notices makes one read, this long after the first. */
export const CHANGED_DELAY_MS = 500;
const PAGE = STATUS_PAGE_LIMITS.groupPageMax;

type Api = typeof pageApi;

/**
 * One status page's state: its data, read once and then patched by pushes; the groups the visitor opened; the items
 * read on demand. Pushes that arrive while a read is on its way are applied again on top of its answer, so an older
 * read never rolls a component back.
 */
export class PageStore {
  private state: PageState = initialPageState;
  private readonly listeners = new Set<() => void>();
  /** Pushes seen while reads were in flight, numbered; emptied once no read is. */
  private pushes: Array<{ seq: number; event: PageItemEvent }> = [];
  private seq = 0;
  private inFlight = 0;
  private dataRead: AbortController | null = null;
  private readonly groupReads = new Map<number, AbortController>();
  private changedTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly slug: string,
    private readonly api: Api = pageApi,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): PageState => this.state;

  private set(next: PageState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  /** Runs a read; returns what it answered with the pushes made meanwhile, or null when superseded or failed. */
  private async read<T>(run: () => Promise<T>): Promise<{ value: T; replay: (state: PageState) => PageState } | null> {
    const startedAt = this.seq;
    this.inFlight += 1;
    try {
      const value = await run();
      const later = this.pushes.filter((push) => push.seq > startedAt).map((push) => push.event);
      return { value, replay: (state) => later.reduce(withItem, state) };
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.pushes = [];
    }
  }

  /** Reads the page's data. `quiet` keeps what is shown (and keeps it on a failure); a newer read aborts this one. */
  async load({ quiet = false }: { quiet?: boolean } = {}): Promise<void> {
    if (this.changedTimer) clearTimeout(this.changedTimer);
    this.changedTimer = null;
    this.dataRead?.abort();
    const controller = new AbortController();
    this.dataRead = controller;
    const keep = quiet && this.state.data !== null;
    if (!keep) this.set({ ...this.state, phase: 'loading', error: null });
    try {
      const answer = await this.read(() => this.api.data(this.slug, controller.signal));
      if (!answer || controller.signal.aborted) return;
      const data = answer.value.data;
      // Group reads belong to the groups as they were; reopened groups that still arrive without items read again.
      for (const read of this.groupReads.values()) read.abort();
      this.groupReads.clear();
      const loaded: PageState = { ...this.state, phase: 'ready', error: null, data, reads: {} };
      this.set(answer.replay(loaded));
      for (const group of data.groups) if (group.items === null && isGroupOpen(this.state, group)) void this.readGroup(group.index, 0);
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof PageError ? error : new PageError(0, undefined, String(error), 'network');
      if (failure.locked) this.set({ ...initialPageState, phase: 'locked', error: failure, connected: this.state.connected });
      else if (!keep) this.set({ ...this.state, phase: 'error', error: failure });
    } finally {
      if (this.dataRead === controller) this.dataRead = null;
    }
  }

  /** Reads one page of a group's items from `offset` (0 replaces what was read, more appends). */
  private async readGroup(index: number, offset: number): Promise<void> {
    this.groupReads.get(index)?.abort();
    const controller = new AbortController();
    this.groupReads.set(index, controller);
    const before: GroupRead = this.state.reads[index] ?? { items: [], total: 0, loading: false, failed: false };
    this.set({ ...this.state, reads: { ...this.state.reads, [index]: { ...before, loading: true, failed: false } } });
    try {
      const answer = await this.read(() => this.api.group(this.slug, index, offset, PAGE, controller.signal));
      if (!answer || controller.signal.aborted) return;
      const { items, total } = answer.value;
      const held = this.state.reads[index]?.items ?? [];
      const read: GroupRead = { items: offset === 0 ? items : [...held.slice(0, offset), ...items], total, loading: false, failed: false };
      this.set(answer.replay({ ...this.state, reads: { ...this.state.reads, [index]: read } }));
    } catch {
      if (controller.signal.aborted) return;
      const current = this.state.reads[index] ?? before;
      this.set({ ...this.state, reads: { ...this.state.reads, [index]: { ...current, loading: false, failed: true } } });
    } finally {
      if (this.groupReads.get(index) === controller) this.groupReads.delete(index);
    }
  }

  /** Opens or closes a group; opening one that arrived without items reads its first page once. */
  toggle(index: number): void {
    const group = this.state.data?.groups.find((candidate) => candidate.index === index);
    if (!group) return;
    const open = !isGroupOpen(this.state, group);
    this.set({ ...this.state, open: { ...this.state.open, [index]: open } });
    const read = this.state.reads[index];
    if (open && group.items === null && (!read || (read.failed && read.items.length === 0))) void this.readGroup(index, 0);
  }

  /** Reads the next page of a group (or the failed one again). */
  more(index: number): void {
    const read = this.state.reads[index];
    if (!read || read.loading) return;
    void this.readGroup(index, read.items.length);
  }

  /** A pushed component change. */
  applyItem(event: PageItemEvent): void {
    if (event.slug !== this.slug) return;
    if (this.inFlight > 0) this.pushes.push({ seq: ++this.seq, event });
    this.set(withItem(this.state, event));
  }

  /** The page's configuration, incidents or maintenance changed: read it again, once for a burst. */
  applyChanged(): void {
    if (this.changedTimer || this.state.phase === 'locked') return;
    this.changedTimer = setTimeout(() => {
      this.changedTimer = null;
      void this.load({ quiet: true });
    }, CHANGED_DELAY_MS);
  }

  setConnected(connected: boolean): void {
    if (connected !== this.state.connected) this.set({ ...this.state, connected });
  }

  dispose(): void {
    if (this.changedTimer) clearTimeout(this.changedTimer);
    this.dataRead?.abort();
    for (const read of this.groupReads.values()) read.abort();
    this.listeners.clear();
  }
}
