import type { PageComponent, PageComponentRef, PageItemEvent, PublicPageGroup, StatusPageData } from '@vigil/proto';
import type { PageError } from './api';

/** Items of a group the page sent collapsed (`items: null`), read page by page on demand. */
export interface GroupRead {
  items: PageComponent[];
  total: number;
  loading: boolean;
  failed: boolean;
}

export type PagePhase = 'loading' | 'ready' | 'locked' | 'error';

export interface PageState {
  phase: PagePhase;
  error: PageError | null;
  data: StatusPageData | null;
  /** By group index: what was read of groups that arrived without their items. */
  reads: Record<number, GroupRead>;
  /** By group index: opened or closed by the visitor; absent, as the page configures it. */
  open: Record<number, boolean>;
  connected: boolean;
}

export const initialPageState: PageState = { phase: 'loading', error: null, data: null, reads: {}, open: {}, connected: false };

/** The key marks use for a component: `m12` for monitor 12, `a3` for agent 3. */
export const componentKey = (component: PageComponentRef): string => `${component.type === 'monitor' ? 'm' : 'a'}${component.id}`;

const sameComponent = (a: PageComponentRef, b: PageComponentRef) => a.type === b.type && a.id === b.id;

/** A list with the component replaced where it is; the same list when it is not there. */
function replaced(items: PageComponent[], component: PageComponent): PageComponent[] {
  const at = items.findIndex((item) => sameComponent(item, component));
  if (at < 0) return items;
  const next = items.slice();
  next[at] = component;
  return next;
}

export function isGroupOpen(state: PageState, group: PublicPageGroup): boolean {
  return state.open[group.index] ?? !group.collapsed;
}

/**
 * A live component change: the component replaced wherever the page holds it (inline or read on demand), its
 * group's counts and status and the banner as the server computed them after the change.
 */
export function withItem(state: PageState, event: PageItemEvent): PageState {
  if (!state.data) return state;
  const groups = state.data.groups.map((group) => {
    const summary = group.index === event.group.index ? { counts: event.group.counts, status: event.group.status } : null;
    const items = group.items ? replaced(group.items, event.component) : null;
    return summary || items !== group.items ? { ...group, ...summary, items } : group;
  });
  let reads = state.reads;
  for (const [index, read] of Object.entries(state.reads)) {
    const items = replaced(read.items, event.component);
    if (items !== read.items) reads = { ...reads, [index]: { ...read, items } };
  }
  return { ...state, data: { ...state.data, overall: event.overall, groups }, reads };
}

/** The day (UTC, `YYYY-MM-DD`) of each entry of a component's bar: the last entry is the day of `updatedAt`. */
export function barDates(length: number, updatedAt: string): string[] {
  const parsed = Date.parse(updatedAt);
  const today = Number.isNaN(parsed) ? Date.now() : parsed;
  const dayMs = 86_400_000;
  return Array.from({ length }, (_, index) => new Date(today - (length - 1 - index) * dayMs).toISOString().slice(0, 10));
}

/** A day's colour on a bar: no data, or by uptime (maintenance shown blue on a day without data). */
export type DayTone = 'up' | 'degraded' | 'down' | 'maintenance' | 'none';

export function dayTone(uptime: number | null, maintenance: boolean): DayTone {
  if (uptime === null) return maintenance ? 'maintenance' : 'none';
  if (uptime >= 99.9) return 'up';
  if (uptime >= 95) return 'degraded';
  return 'down';
}

/**
 * How a component's status is shown: paused monitors as paused, agents' online/offline/connecting as the matching
 * colour. The word shown keeps the agent's own status (`active` reads "Online").
 */
export type ComponentTone = 'up' | 'degraded' | 'down' | 'unreachable' | 'maintenance' | 'pending' | 'paused';

export function shownStatus(component: Pick<PageComponent, 'status' | 'active'>): string {
  return component.active === false && component.status !== 'maintenance' ? 'paused' : component.status;
}

const TONES: Record<string, ComponentTone> = {
  up: 'up',
  active: 'up',
  degraded: 'degraded',
  down: 'down',
  inactive: 'down',
  unreachable: 'unreachable',
  maintenance: 'maintenance',
  pending: 'pending',
  connecting: 'pending',
  paused: 'paused',
};

export const toneOf = (status: string): ComponentTone => TONES[status] ?? 'pending';
