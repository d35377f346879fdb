import type { AgentContainerReport } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import type { AlertState } from './alert-state.repository';
import { thresholdStep } from './rules';
import type { TargetSettings } from './rules';
import type { NotificationEvent } from './templates';

type Stored = EventMap['agent.report_stored'];

/** What one report says of one container or unit, for one rule. */
export interface ItemVerdict {
  item: string;
  failing: boolean;
  /** Kept in `alert_state` even with no streak: a container seen running is watched from then on. */
  watch?: boolean;
  /** No longer this rule's concern (a unit no longer watched, a container no longer running for its health): forgotten. */
  gone?: boolean;
  /** What the messages say of it (`state`, `image`, `health`, `sub_state`). */
  vars: Record<string, string | null>;
}

interface ItemRule {
  flag: keyof TargetSettings;
  open: NotificationEvent;
  close: NotificationEvent;
  /**
   * The report's verdict on each item, given the items already watched; null when the report cannot say (the engine
   * unreadable, an older agent, no units watched), which leaves every streak and episode as it is.
   */
  judge(stored: Stored, watched: ReadonlySet<string>): ItemVerdict[] | null;
}

const containerVars = (c: AgentContainerReport) => ({ state: c.state, image: c.image, health: c.health });

/**
 * Per-item host alerts: each container or systemd unit is an episode of its own (`alert_state.item`), opened after
 * `ALERT_THRESHOLD_REPORTS` failing reports in a row and closed by the first report where it no longer fails.
 */
export const ITEM_RULES = {
  /**
   * A container seen running is watched; it is down while it is not running (exited, dead, restarting, paused…) or
   * missing from a list the engine answered. One never seen running (a one-off job) is never judged.
   */
  containerDown: {
    flag: 'on_container_down',
    open: 'agent.container_down',
    close: 'agent.container_recovery',
    judge: ({ insight }, watched) => {
      const containers = insight?.containers;
      if (!containers) return null;
      const listed = new Set(containers.map((c) => c.name));
      const verdicts: ItemVerdict[] = containers
        .filter((c) => c.state === 'running' || watched.has(c.name))
        .map((c) => ({ item: c.name, failing: c.state !== 'running', watch: true, vars: containerVars(c) }));
      for (const name of watched) {
        if (!listed.has(name)) verdicts.push({ item: name, failing: true, vars: { state: 'missing', image: null, health: null } });
      }
      return verdicts;
    },
  },
  /** A running container whose health check says unhealthy; one that stops or vanishes is the down rule's news. */
  containerUnhealthy: {
    flag: 'on_container_unhealthy',
    open: 'agent.container_unhealthy',
    close: 'agent.container_healthy',
    judge: ({ insight }, watched) => {
      const containers = insight?.containers;
      if (!containers) return null;
      const running = containers.filter((c) => c.state === 'running');
      const verdicts: ItemVerdict[] = running.map((c) => ({ item: c.name, failing: c.health === 'unhealthy', vars: containerVars(c) }));
      const seen = new Set(running.map((c) => c.name));
      for (const name of watched) if (!seen.has(name)) verdicts.push({ item: name, failing: false, gone: true, vars: {} });
      return verdicts;
    },
  },
  /** A watched systemd unit in state `failed`; a unit no longer in `--services` is forgotten. */
  serviceFailed: {
    flag: 'on_service_failed',
    open: 'agent.service_failed',
    close: 'agent.service_recovery',
    judge: ({ insight }, watched) => {
      const services = insight?.services;
      if (!services) return null;
      const verdicts: ItemVerdict[] = services.map((s) => ({
        item: s.name,
        failing: s.state === 'failed',
        vars: { state: s.state, sub_state: s.sub_state ?? null },
      }));
      const listed = new Set(services.map((s) => s.name));
      for (const name of watched) if (!listed.has(name)) verdicts.push({ item: name, failing: false, gone: true, vars: {} });
      return verdicts;
    },
  },
} as const satisfies Record<string, ItemRule>;

export type ItemMetric = keyof typeof ITEM_RULES;
export const ITEM_METRICS = Object.keys(ITEM_RULES) as ItemMetric[];

/**
 * What one report does to one item's episode: `open` (alert), `close` (recovery), `quiet` (closed without a message:
 * the item is gone or the rule was switched off) or nothing; `after` null forgets the item's row.
 */
export interface ItemDecision {
  item: string;
  before: AlertState | null;
  after: AlertState | null;
  fire: 'open' | 'close' | 'quiet' | null;
  /** Whether `after` must be written (it changed, or a newly watched item). */
  save: boolean;
  vars: ItemVerdict['vars'];
}

/**
 * One report's decisions for one agent and one rule, from the rows of its items (`states`). A rule switched off
 * forgets every item (closing open episodes quietly), so switching it on again starts afresh.
 */
export function decideItems(
  metric: ItemMetric,
  stored: Stored,
  states: readonly AlertState[],
  watching: boolean,
  window: number,
  at: Date,
): ItemDecision[] {
  const byItem = new Map(states.map((state) => [state.item, state]));
  if (!watching)
    return states.map((before) => ({ item: before.item, before, after: null, fire: before.open ? 'quiet' : null, save: false, vars: {} }));
  const verdicts = ITEM_RULES[metric].judge(stored, new Set(byItem.keys()));
  if (!verdicts) return [];
  return verdicts.flatMap((verdict): ItemDecision[] => {
    const before = byItem.get(verdict.item) ?? null;
    const base = { item: verdict.item, before, vars: verdict.vars };
    if (verdict.gone) return before ? [{ ...base, after: null, fire: before.open ? 'quiet' : null, save: false }] : [];
    const state = before ?? fresh(stored.agent.id, metric, verdict.item);
    const step = thresholdStep(state, verdict.failing ? 1 : 0, 0, window);
    let after: AlertState = { ...state, ...step.state };
    if (step.fire === 'high') after = { ...after, episode: state.episode + 1, notified: true, since: at };
    if (step.fire === 'recovery') after = { ...after, notified: false, since: at };
    const changed = after.streak !== state.streak || after.open !== state.open || after.episode !== state.episode;
    const fire = step.fire === 'high' ? 'open' : step.fire === 'recovery' ? 'close' : null;
    return [{ ...base, after, fire, save: changed || (!before && verdict.watch === true) }];
  });
}

const fresh = (target_id: number, metric: ItemMetric, item: string): AlertState => ({
  kind: 'agent',
  target_id,
  metric,
  item,
  streak: 0,
  open: false,
  since: null,
  episode: 0,
  notified: false,
});
