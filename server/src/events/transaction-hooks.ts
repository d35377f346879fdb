import { Injectable } from '@nestjs/common';
import type { AgentDto, AgentMetricPoint, AgentStatus, MonitorStatus } from '@vigil/proto';
import type { EntityManager } from 'typeorm';

/** A monitor's transition as its writer stores it. */
export interface MonitorTransition {
  monitor: { id: number; name: string; url: string; expected_status: number };
  previous: MonitorStatus;
  status: MonitorStatus;
  check: { id: number; status_code: number | null; response_time: number | null; error: string | null; checked_at: Date };
}

export interface AgentTransition {
  agent: AgentDto;
  previous: AgentStatus;
  status: AgentStatus;
}

export interface AgentReading {
  agent: AgentDto;
  point: AgentMetricPoint;
}

/** What each hook receives. */
export interface TransactionHookMap {
  'monitor.transitions': MonitorTransition[];
  'agent.transitions': AgentTransition[];
  /** Every stored report, oldest first per agent. */
  'agent.readings': AgentReading[];
}

type Hook<K extends keyof TransactionHookMap> = (manager: EntityManager, payload: TransactionHookMap[K]) => Promise<void>;

/**
 * Work that must commit or roll back together with a recorded event (the notification outbox): writers call
 * `run` inside their transaction; other modules register here, so writers need not know them.
 */
@Injectable()
export class TransactionHooks {
  private readonly hooks: { [K in keyof TransactionHookMap]?: Array<Hook<K>> } = {};

  on<K extends keyof TransactionHookMap>(name: K, hook: Hook<K>): void {
    ((this.hooks[name] ??= []) as Array<Hook<K>>).push(hook);
  }

  async run<K extends keyof TransactionHookMap>(name: K, manager: EntityManager, payload: TransactionHookMap[K]): Promise<void> {
    if (!payload.length) return;
    for (const hook of (this.hooks[name] ?? []) as Array<Hook<K>>) await hook(manager, payload);
  }
}
