import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { AgentDto, MonitorType } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { AlertSender, type Send } from './alert-sender';
import { AlertStateRepository, type AlertState } from './alert-state.repository';
import { monitorVars, type MessageVars } from './messages';
import { agentDecision, monitorDecision, thresholdStep, type StatusDecision } from './rules';

type Kind = AlertState['kind'];
type Metric = AlertState['metric'];
const THRESHOLD_METRICS = ['cpu', 'memory', 'disk'] as const;
const METRIC_LABEL = { cpu: 'CPU', memory: 'memory', disk: 'disk' } as const;

interface StatusEvent {
  target: { kind: Kind; id: number; name: string };
  decision: NonNullable<StatusDecision>;
  at: Date;
  vars: MessageVars;
  monitorType?: MonitorType;
}

const stateKey = (kind: Kind, id: number, metric: Metric) => `${kind}:${id}:${metric}`;
const fresh = (kind: Kind, target_id: number, metric: Metric): AlertState => ({
  kind,
  target_id,
  metric,
  streak: 0,
  open: false,
  since: null,
  episode: 0,
  notified: false,
});

/**
 * Turns recorded events into notifications inside the transaction that records them: a monitor going down or an
 * agent going offline opens an alert episode, coming back closes it; a metric above its threshold for the configured
 * number of reports opens one. Each opening sends once, each closing sends only after an opening was sent, and the
 * outbox row is committed with the event or not at all.
 */
@Injectable()
export class AlertsService {
  constructor(
    private readonly alertStates: AlertStateRepository,
    private readonly sender: AlertSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnEvent('monitor.status_changed', { phase: 'transaction' })
  private onMonitorTransitions(transitions: Array<EventMap['monitor.status_changed']>, manager: EntityManager): Promise<void> {
    const events = transitions.flatMap((t): StatusEvent[] => {
      const decision = monitorDecision(t.previous, t.status);
      if (!decision) return [];
      return [
        {
          target: { kind: 'monitor', id: t.monitor.id, name: t.monitor.name },
          decision,
          at: new Date(t.check.checked_at),
          vars: monitorVars(t.monitor, t.check, t.previous, t.status),
          monitorType: t.monitor.type,
        },
      ];
    });
    return this.onStatusEvents(manager, 'monitor', events);
  }

  @OnEvent('agent.status_changed', { phase: 'transaction' })
  private onAgentTransitions(transitions: Array<EventMap['agent.status_changed']>, manager: EntityManager): Promise<void> {
    const events = transitions.flatMap((t): StatusEvent[] => {
      const decision = agentDecision(t.previous, t.status);
      if (!decision) return [];
      return [
        {
          target: { kind: 'agent', id: t.agent.id, name: t.agent.name },
          decision,
          at: new Date(t.changedAt),
          vars: { ...agentVars(t.agent), status: t.status, previous_status: t.previous },
        },
      ];
    });
    return this.onStatusEvents(manager, 'agent', events);
  }

  private async onStatusEvents(manager: EntityManager, kind: Kind, events: StatusEvent[]): Promise<void> {
    if (!events.length) return;
    const ids = [...new Set(events.map((e) => e.target.id))];
    const settings = await this.sender.settings(manager, kind, ids);
    const states = await this.loadStates(manager, kind, ids, ['status']);
    const changed = new Set<string>();
    const sends: Send[] = [];

    for (const event of events) {
      const key = stateKey(kind, event.target.id, 'status');
      const state = states.get(key) ?? fresh(kind, event.target.id, 'status');
      const applies = settings.for(event.target.id);
      let next: AlertState;
      if ('open' in event.decision) {
        if (state.open) continue;
        const wanted = Boolean(applies && (kind === 'monitor' ? applies.on_down : applies.on_offline));
        next = { ...state, open: true, episode: state.episode + 1, notified: wanted, since: event.at, streak: 0 };
        if (wanted) {
          const name = kind === 'monitor' ? 'monitor.down' : 'agent.offline';
          const episode = `${key}:${next.episode}`;
          sends.push({
            settings: applies!,
            event: name,
            key: `${episode}:open`,
            episode,
            target: event.target,
            vars: event.vars,
            at: event.at,
            monitorType: event.monitorType,
          });
        }
      } else {
        if (!state.open) continue;
        next = { ...state, open: false, notified: false, since: event.at };
        if (state.notified && applies?.on_recovery) {
          const name = kind === 'monitor' ? 'monitor.recovery' : 'agent.recovery';
          const episode = `${key}:${state.episode}`;
          sends.push({
            settings: applies,
            event: name,
            key: `${episode}:close`,
            episode,
            target: event.target,
            vars: event.vars,
            at: event.at,
            monitorType: event.monitorType,
          });
        }
      }
      states.set(key, next);
      changed.add(key);
    }
    await this.commit(
      manager,
      [...changed].map((key) => states.get(key)!),
      sends,
    );
  }

  @OnEvent('agent.report_stored', { phase: 'transaction' })
  private async onAgentReadings(readings: Array<EventMap['agent.report_stored']>, manager: EntityManager): Promise<void> {
    const ids = [...new Set(readings.map((r) => r.agent.id))];
    const settings = await this.sender.settings(manager, 'agent', ids);
    const states = await this.loadStates(manager, 'agent', ids, THRESHOLD_METRICS);
    const changed = new Set<string>();
    const sends: Send[] = [];
    const window = this.config.notifications.thresholdReports;

    for (const { agent, point } of readings) {
      const applies = settings.for(agent.id);
      const at = new Date(point.time);
      for (const metric of THRESHOLD_METRICS) {
        const value = point[metric];
        if (value === null || value === undefined) continue;
        const key = stateKey('agent', agent.id, metric);
        const state = states.get(key) ?? fresh('agent', agent.id, metric);
        const threshold = applies?.[`${metric}_threshold`];
        let next: AlertState;
        if (!applies || !applies[`on_${metric}_threshold`] || threshold === undefined) {
          // Not watched: forget any streak, so switching the alert on starts counting afresh.
          next = { ...state, streak: 0, open: false, notified: false };
        } else {
          const step = thresholdStep(state, value, threshold, window);
          next = { ...state, ...step.state };
          const target = { kind: 'agent' as const, id: agent.id, name: agent.name };
          const vars = { ...agentVars(agent), metric: METRIC_LABEL[metric], value: round(value), threshold };
          if (step.fire === 'high') {
            next = { ...next, episode: state.episode + 1, notified: true, since: at };
            const episode = `${key}:${next.episode}`;
            sends.push({ settings: applies, event: `agent.${metric}_high`, key: `${episode}:open`, episode, target, vars, at });
          } else if (step.fire === 'recovery') {
            next = { ...next, notified: false, since: at };
            const episode = `${key}:${state.episode}`;
            if (state.notified)
              sends.push({ settings: applies, event: `agent.${metric}_recovery`, key: `${episode}:close`, episode, target, vars, at });
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
    await this.commit(
      manager,
      [...changed].map((key) => states.get(key)!),
      sends,
    );
  }

  /** Writes the changed alert states and the notifications, in the event's transaction. */
  private async commit(manager: EntityManager, states: AlertState[], sends: Send[]): Promise<void> {
    if (states.length) await this.alertStates.save(manager, states);
    await this.sender.send(manager, sends);
  }

  private async loadStates(
    manager: EntityManager,
    kind: Kind,
    ids: number[],
    metrics: readonly Metric[],
  ): Promise<Map<string, AlertState>> {
    const rows = await this.alertStates.load(manager, kind, ids, metrics);
    return new Map(rows.map((row) => [stateKey(row.kind, row.target_id, row.metric), row]));
  }
}

function agentVars(agent: AgentDto): MessageVars {
  return { name: agent.name, hostname: agent.hostname, ip_addresses: agent.ip_addresses.join(', '), os: agent.os };
}

const round = (value: number) => Math.round(value * 10) / 10;
