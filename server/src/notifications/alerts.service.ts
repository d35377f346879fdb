import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { MonitorType } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { HostContextRepository } from '../agents/host-context.repository';
import { AlertFeed } from './alert-feed.service';
import { AlertRecordsRepository, metricKey, type EpisodeEdge } from './alert-records.repository';
import { AlertSender, type Send } from './alert-sender';
import { firstDue, policyOf } from './escalation';
import { AlertStateRepository, type AlertState } from './alert-state.repository';
import { hostVars } from './host-block';
import { agentVars, monitorVars, type MessageVars } from './messages';
import { THRESHOLD_METRICS, THRESHOLD_RULES, type HostReading } from './host-rules';
import { itemBatch } from './host-item-alerts';
import { ITEM_METRICS } from './host-item-rules';
import { agentDecision, degradedDecision, monitorDecision, thresholdStep, type TargetSettings } from './rules';
import type { NotificationEvent } from './templates';

type Kind = AlertState['kind'];
type Metric = AlertState['metric'];

/** One edge of one episode: `status` (down/offline), `degraded` or `flapping`. */
interface EpisodeEvent {
  target: { kind: Kind; id: number; name: string };
  metric: Metric;
  open: boolean;
  /** Recorded, but no message: a degraded spell ending in down, a down or recovery while flapping. */
  quiet?: boolean;
  at: Date;
  vars: MessageVars;
  monitorType?: MonitorType;
  /** A monitor's: the agent of the host it runs on, whose state its down alert tells. */
  hostAgentId?: number | null;
}

/** What each episode's edges send, and which settings flag lets them. */
const EPISODE_EVENTS: Record<string, { open: NotificationEvent; close: NotificationEvent; flag: keyof TargetSettings }> = {
  'monitor:status': { open: 'monitor.down', close: 'monitor.recovery', flag: 'on_down' },
  'agent:status': { open: 'agent.offline', close: 'agent.recovery', flag: 'on_offline' },
  'monitor:degraded': { open: 'monitor.degraded', close: 'monitor.degraded_recovery', flag: 'on_degraded' },
  'monitor:flapping': { open: 'monitor.flapping', close: 'monitor.flapping_settled', flag: 'on_down' },
};

export const stateKey = (kind: Kind, id: number, metric: Metric, item = '') => `${kind}:${id}:${metricKey(metric, item)}`;
const fresh = (kind: Kind, target_id: number, metric: Metric): AlertState => ({
  kind,
  target_id,
  metric,
  item: '',
  streak: 0,
  open: false,
  since: null,
  episode: 0,
  notified: false,
});

/** A down alert and the agent of the host its monitor runs on. */
interface Hosted {
  send: Send;
  agentId: number;
}

/** What one transaction decided: states to save, episodes opened and closed, notifications to write. */
interface Batch {
  states: AlertState[];
  /** Item rows no longer watched (host-item-rules.ts). */
  forget?: AlertState[];
  opened: EpisodeEdge[];
  closed: EpisodeEdge[];
  sends: Send[];
}

/**
 * Turns recorded events into alert episodes and notifications inside the transaction that records them: a monitor
 * going down or an agent going offline opens an episode (an `alerts` row), coming back closes it; a degraded spell, a
 * flapping spell and a metric above its threshold open their own. Each opening sends once (nothing while the target
 * is muted), each closing only after an opening was sent; `unreachable` neither opens nor closes (the dependency's
 * alert names its dependents), and while a monitor flaps its down and recovery are recorded but not sent. The outbox
 * rows commit with the event or not at all; once committed, the alerts are pushed live.
 */
@Injectable()
export class AlertsService {
  /** The alerts a transaction changed, by its first event's payload (the same object its commit phase hears). */
  private readonly touched = new WeakMap<object, number[]>();

  constructor(
    private readonly alertStates: AlertStateRepository,
    private readonly records: AlertRecordsRepository,
    private readonly sender: AlertSender,
    private readonly feed: AlertFeed,
    private readonly hosts: HostContextRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnEvent('monitor.status_changed', { phase: 'transaction' })
  private onMonitorTransitions(transitions: Array<EventMap['monitor.status_changed']>, manager: EntityManager): Promise<void> {
    const events = transitions.flatMap((t): EpisodeEvent[] => {
      const base = {
        target: { kind: 'monitor' as const, id: t.monitor.id, name: t.monitor.name },
        at: new Date(t.check.checked_at),
        vars: monitorVars(t.monitor, t.check, t.previous, t.status),
        monitorType: t.monitor.type,
        hostAgentId: t.monitor.host_agent_id,
      };
      const found: EpisodeEvent[] = [];
      const status = monitorDecision(t.previous, t.status);
      if (status) found.push({ ...base, metric: 'status', open: 'open' in status, quiet: Boolean(t.monitor.flapping) });
      const degraded = degradedDecision(t.previous, t.status);
      if (degraded) found.push({ ...base, metric: 'degraded', open: 'open' in degraded, quiet: 'close' in degraded && !degraded.close });
      return found;
    });
    return this.onEpisodes(manager, 'monitor', events, transitions[0]);
  }

  @OnEvent('agent.status_changed', { phase: 'transaction' })
  private onAgentTransitions(transitions: Array<EventMap['agent.status_changed']>, manager: EntityManager): Promise<void> {
    const events = transitions.flatMap((t): EpisodeEvent[] => {
      const decision = agentDecision(t.previous, t.status);
      // Offline behind an offline or down dependency: that one's alert names this agent. Offline in a maintenance
      // window: planned; the window's end opens the alert if it is still offline then (onMaintenanceEnded).
      if (!decision || ('open' in decision && (t.agent.unreachable || t.agent.maintenance))) return [];
      return [
        {
          target: { kind: 'agent', id: t.agent.id, name: t.agent.name },
          metric: 'status',
          open: 'open' in decision,
          at: new Date(t.changedAt),
          vars: { ...agentVars(t.agent), status: t.status, previous_status: t.previous },
        },
      ];
    });
    return this.onEpisodes(manager, 'agent', events, transitions[0]);
  }

  /** A window left an agent still offline (not behind a down dependency): its offline alert opens now. */
  @OnEvent('agent.maintenance_ended', { phase: 'transaction' })
  private onMaintenanceEnded(ended: Array<EventMap['agent.maintenance_ended']>, manager: EntityManager): Promise<void> {
    const events = ended
      .filter(({ agent }) => agent.status === 'inactive' && !agent.unreachable)
      .map(({ agent, at }): EpisodeEvent => ({
        target: { kind: 'agent', id: agent.id, name: agent.name },
        metric: 'status',
        open: true,
        at: new Date(at),
        vars: { ...agentVars(agent), status: agent.status, previous_status: 'maintenance' },
      }));
    return this.onEpisodes(manager, 'agent', events, ended[0]);
  }

  /**
   * Flapping starts and settles at a check: the state machine decides it and raises `monitor.flapping_changed` with
   * that check, in the same transaction; one message each way (none while in maintenance: settling there is recorded).
   */
  @OnEvent('monitor.flapping_changed', { phase: 'transaction' })
  private onFlapping(changes: Array<EventMap['monitor.flapping_changed']>, manager: EntityManager): Promise<void> {
    const events = changes.map(({ monitor, flapping, check }): EpisodeEvent => ({
      target: { kind: 'monitor', id: monitor.id, name: monitor.name },
      metric: 'flapping',
      open: flapping,
      quiet: monitor.status === 'maintenance',
      at: new Date(check.checked_at),
      vars: monitorVars(monitor, check, monitor.status, monitor.status),
      monitorType: monitor.type,
    }));
    return this.onEpisodes(manager, 'monitor', events, changes[0]);
  }

  private async onEpisodes(manager: EntityManager, kind: Kind, events: EpisodeEvent[], payload: object | undefined): Promise<void> {
    if (!events.length) return;
    const ids = [...new Set(events.map((e) => e.target.id))];
    const metrics = [...new Set(events.map((e) => e.metric))];
    const settings = await this.sender.settings(manager, kind, ids);
    const states = await this.loadStates(manager, kind, ids, metrics);
    const muted = await this.records.muted(manager, kind, ids);
    const batch: Batch = { states: [], opened: [], closed: [], sends: [] };
    const changed = new Set<string>();
    const hosted: Hosted[] = [];

    for (const event of events) {
      const key = stateKey(kind, event.target.id, event.metric);
      const state = states.get(key) ?? fresh(kind, event.target.id, event.metric);
      const applies = settings.for(event.target.id);
      const texts = EPISODE_EVENTS[`${kind}:${event.metric}`];
      const edge = { target_kind: kind, target_id: event.target.id, target_name: event.target.name, metric: event.metric, at: event.at };
      let next: AlertState;
      if (event.open) {
        if (state.open) continue;
        const wanted = Boolean(applies?.[texts.flag]) && !event.quiet && !muted.has(event.target.id);
        next = { ...state, open: true, episode: state.episode + 1, notified: wanted, since: event.at, streak: 0 };
        batch.opened.push({ ...edge, episode: next.episode, due_at: this.firstDue(applies, event.at) });
        if (wanted) {
          const send = this.send(applies!, texts.open, `${key}:${next.episode}`, 'open', event);
          batch.sends.push(send);
          if (send.event === 'monitor.down' && event.hostAgentId) hosted.push({ send, agentId: event.hostAgentId });
        }
      } else {
        if (!state.open) continue;
        next = { ...state, open: false, notified: false, since: event.at };
        batch.closed.push({ ...edge, episode: state.episode });
        if (state.notified && applies?.on_recovery && !event.quiet && !muted.has(event.target.id))
          batch.sends.push(this.send(applies, texts.close, `${key}:${state.episode}`, 'close', event));
      }
      states.set(key, next);
      changed.add(key);
    }
    batch.states = [...changed].map((key) => states.get(key)!);
    await this.nameDependents(manager, batch.sends);
    await this.describeHosts(manager, hosted);
    await this.commit(manager, batch, payload);
  }

  private send(settings: TargetSettings, event: NotificationEvent, episode: string, edge: 'open' | 'close', from: EpisodeEvent): Send {
    const { target, vars, at, monitorType } = from;
    return { settings, event, key: `${episode}:${edge}`, episode, target, vars, at, monitorType };
  }

  /** A down (offline) alert and its recovery name what depends on the target. */
  private async nameDependents(manager: EntityManager, sends: Send[]): Promise<void> {
    // Episodes are a monitor's or an agent's (a window's notices have none).
    const roots = sends.filter((s) => s.episode?.split(':')[2] === 'status');
    if (!roots.length) return;
    const byRoot = await this.records.dependents(
      manager,
      roots.map((s) => ({ kind: s.target.kind as Kind, id: s.target.id })),
    );
    for (const send of roots) send.dependents = byRoot.get(`${send.target.kind}:${send.target.id}`);
  }

  /** A monitor's down alert tells the state of the host it runs on, as the database holds it now (one read per batch). */
  private async describeHosts(manager: EntityManager, hosted: Hosted[]): Promise<void> {
    if (!hosted.length) return;
    const hosts = await this.hosts.forAgents([...new Set(hosted.map((h) => h.agentId))], manager);
    for (const { send, agentId } of hosted) {
      const host = hosts.get(agentId);
      if (host) send.vars = { ...send.vars, ...hostVars(host, send.at) };
    }
  }

  @OnEvent('agent.report_stored', { phase: 'transaction' })
  private async onAgentReadings(readings: Array<EventMap['agent.report_stored']>, manager: EntityManager): Promise<void> {
    const ids = [...new Set(readings.map((r) => r.agent.id))];
    const settings = await this.sender.settings(manager, 'agent', ids);
    const states = await this.loadStates(manager, 'agent', ids, [...THRESHOLD_METRICS, ...ITEM_METRICS]);
    const changed = new Set<string>();
    const batch: Batch = { states: [], opened: [], closed: [], sends: [] };
    const window = this.config.notifications.thresholdReports;
    // Containers and units: one episode per item (host-item-rules.ts), committed with the thresholds'.
    const items = itemBatch(
      readings,
      (id) => settings.for(id),
      [...states.values()].filter((state) => state.item !== ''),
      window,
      (applies, at) => this.firstDue(applies, at),
    );

    for (const stored of readings) {
      const { agent, point } = stored;
      const applies = settings.for(agent.id);
      const at = new Date(point.time);
      for (const metric of THRESHOLD_METRICS) {
        const rule = THRESHOLD_RULES[metric];
        const reading: HostReading | null = rule.read(stored);
        if (!reading) continue;
        const value = reading.value;
        const key = stateKey('agent', agent.id, metric);
        const state = states.get(key) ?? fresh('agent', agent.id, metric);
        const threshold = applies?.[rule.threshold] as number | undefined;
        let next: AlertState;
        const edge = { target_kind: 'agent' as const, target_id: agent.id, target_name: agent.name, metric, at };
        if (!applies || !applies[rule.flag] || threshold === undefined) {
          // Not watched: forget any streak, so switching the alert on starts counting afresh.
          next = { ...state, streak: 0, open: false, notified: false };
          if (state.open) batch.closed.push({ ...edge, episode: state.episode });
        } else {
          const step = thresholdStep(state, value, threshold, window);
          next = { ...state, ...step.state };
          const target = { kind: 'agent' as const, id: agent.id, name: agent.name };
          const vars = { ...agentVars(agent), metric: rule.label, value: round(value), threshold, item: reading.item };
          if (step.fire === 'high') {
            next = { ...next, episode: state.episode + 1, notified: true, since: at };
            const episode = `${key}:${next.episode}`;
            batch.opened.push({ ...edge, episode: next.episode, due_at: this.firstDue(applies, at) });
            batch.sends.push({ settings: applies, event: rule.high, key: `${episode}:open`, episode, target, vars, at });
          } else if (step.fire === 'recovery') {
            next = { ...next, notified: false, since: at };
            const episode = `${key}:${state.episode}`;
            batch.closed.push({ ...edge, episode: state.episode });
            if (state.notified)
              batch.sends.push({
                settings: applies,
                event: rule.recovery,
                key: `${episode}:close`,
                episode,
                target,
                vars,
                at,
              });
          }
        }
        if (
          next.streak !== state.streak ||
          next.open !== state.open ||
          next.notified !== state.notified ||
          next.episode !== state.episode
        ) {
          states.set(key, next);
          changed.add(key);
        }
      }
    }
    batch.states = [...[...changed].map((key) => states.get(key)!), ...items.states];
    batch.forget = items.forget;
    batch.opened.push(...items.opened);
    batch.closed.push(...items.closed);
    batch.sends.push(...items.sends);
    // Muted agents: recorded as usual, nothing sent (asked only when there is something to send).
    if (batch.sends.length) {
      const muted = await this.records.muted(manager, 'agent', [...new Set(batch.sends.map((s) => s.target.id))]);
      batch.sends = batch.sends.filter((s) => !muted.has(s.target.id));
    }
    await this.commit(manager, batch, readings[0]);
  }

  /** Writes the states, the episodes' rows and the notifications linked to them, in the event's transaction. */
  private async commit(manager: EntityManager, batch: Batch, payload: object | undefined): Promise<void> {
    if (batch.forget?.length) await this.alertStates.forget(manager, batch.forget);
    if (batch.states.length) await this.alertStates.save(manager, batch.states);
    const opened = await this.records.open(manager, batch.opened);
    const closed = await this.records.close(manager, batch.closed);
    for (const send of batch.sends) send.alertId = opened.get(send.episode!) ?? closed.get(send.episode!);
    await this.sender.send(manager, batch.sends);
    const ids = [...opened.values(), ...closed.values()];
    if (ids.length && payload) this.touched.set(payload, ids);
  }

  @OnEvent('monitor.status_changed')
  @OnEvent('agent.status_changed')
  @OnEvent('monitor.flapping_changed')
  @OnEvent('agent.report_stored')
  @OnEvent('agent.maintenance_ended')
  private async pushCommitted(payload: object): Promise<void> {
    const ids = this.touched.get(payload);
    if (!ids) return;
    this.touched.delete(payload);
    await this.feed.changed(ids);
  }

  private firstDue(applies: TargetSettings | null, at: Date): Date {
    return firstDue(policyOf(applies), at, this.config.notifications.alertMinuteMs);
  }

  private async loadStates(
    manager: EntityManager,
    kind: Kind,
    ids: number[],
    metrics: readonly Metric[],
  ): Promise<Map<string, AlertState>> {
    const rows = await this.alertStates.load(manager, kind, ids, metrics);
    return new Map(rows.map((row) => [stateKey(row.kind, row.target_id, row.metric, row.item), row]));
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
