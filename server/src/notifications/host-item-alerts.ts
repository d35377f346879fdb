import type { EventMap } from '../events/event-map';
import { episodeKey, metricKey, type EpisodeEdge } from './alert-records.repository';
import type { Send } from './alert-sender';
import type { AlertState } from './alert-state.repository';
import { decideItems, ITEM_METRICS, ITEM_RULES } from './host-item-rules';
import { agentVars } from './messages';
import type { TargetSettings } from './rules';

/** What the per-item rules decided for a batch of reports: rows to write and forget, episodes, notifications. */
export interface ItemBatch {
  states: AlertState[];
  forget: AlertState[];
  opened: EpisodeEdge[];
  closed: EpisodeEdge[];
  sends: Send[];
}

/**
 * Runs the container and service rules over stored reports (oldest first per agent), threading each item's state
 * from one report to the next, and turns their decisions into the batch AlertsService commits with the thresholds'.
 * `loaded`: the rows of these agents' items, as read in the transaction.
 */
export function itemBatch(
  readings: ReadonlyArray<EventMap['agent.report_stored']>,
  settingsFor: (agentId: number) => TargetSettings | null,
  loaded: readonly AlertState[],
  window: number,
  firstDue: (settings: TargetSettings, at: Date) => Date,
): ItemBatch {
  const batch: ItemBatch = { states: [], forget: [], opened: [], closed: [], sends: [] };
  // Each agent's and rule's items by name, as the reports so far left them.
  const current = new Map<string, Map<string, AlertState>>();
  const itemsOf = (agentId: number, metric: string) => {
    const key = `${agentId}:${metric}`;
    if (!current.has(key)) current.set(key, new Map());
    return current.get(key)!;
  };
  for (const state of loaded) itemsOf(state.target_id, state.metric).set(state.item, state);
  const saved = new Map<string, AlertState>();
  const forgotten = new Map<string, AlertState>();
  for (const stored of readings) {
    const { agent } = stored;
    const applies = settingsFor(agent.id);
    const at = new Date(stored.point.time);
    for (const metric of ITEM_METRICS) {
      const rule = ITEM_RULES[metric];
      const items = itemsOf(agent.id, metric);
      for (const decision of decideItems(metric, stored, [...items.values()], Boolean(applies?.[rule.flag]), window, at)) {
        const { item, before, after } = decision;
        const key = `agent:${agent.id}:${metricKey(metric, item)}`;
        const edge = { target_kind: 'agent' as const, target_id: agent.id, target_name: agent.name, metric, item, at };
        const target = { kind: 'agent' as const, id: agent.id, name: agent.name };
        const vars = { ...agentVars(agent), item, ...decision.vars };
        if (decision.fire === 'open' && after && applies) {
          const episode = episodeKey({ ...edge, episode: after.episode });
          batch.opened.push({ ...edge, episode: after.episode, due_at: firstDue(applies, at) });
          batch.sends.push({ settings: applies, event: rule.open, key: `${episode}:open`, episode, target, vars, at });
        } else if ((decision.fire === 'close' || decision.fire === 'quiet') && before) {
          const episode = episodeKey({ ...edge, episode: before.episode });
          batch.closed.push({ ...edge, episode: before.episode });
          if (decision.fire === 'close' && before.notified && applies)
            batch.sends.push({ settings: applies, event: rule.close, key: `${episode}:close`, episode, target, vars, at });
        }
        if (after) {
          items.set(item, after);
          // A row forgotten earlier in the batch stays forgotten unless there is something to write again.
          if (decision.save) {
            saved.set(key, after);
            forgotten.delete(key);
          }
        } else if (before) {
          items.delete(item);
          saved.delete(key);
          forgotten.set(key, before);
        }
      }
    }
  }
  batch.states = [...saved.values()];
  batch.forget = [...forgotten.values()];
  return batch;
}
