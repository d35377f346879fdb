import type { AgentDto, AgentStatus } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import type { AgentRow } from './agent.types';
import type { LatestFigures } from './figures';

const count = (value: string | number | null): number | null => (value === null ? null : Number(value));

export function toAgentDto(row: AgentRow): AgentDto {
  return {
    id: row.id,
    name: row.name,
    hostname: row.hostname,
    ip_address: row.ip_addresses[0] ?? null,
    ip_addresses: row.ip_addresses,
    os: row.os,
    version: row.version,
    platform: row.platform,
    kernel: row.kernel,
    arch: row.arch,
    cpu_model: row.cpu_model,
    cpu_cores: row.cpu_cores,
    status: row.status,
    protocol: row.protocol,
    interval: row.interval_s,
    cpu_usage: row.cpu_usage,
    memory_total: count(row.memory_total),
    memory_used: count(row.memory_used),
    swap_total: count(row.swap_total),
    swap_used: count(row.swap_used),
    disk_total: count(row.disk_total),
    disk_used: count(row.disk_used),
    network_rx: row.network_rx,
    network_tx: row.network_tx,
    load1: row.load1,
    load5: row.load5,
    load15: row.load15,
    host_uptime: count(row.host_uptime),
    disks: row.disks ?? [],
    interfaces: row.interfaces ?? [],
    registration_id: row.registration_id,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    depends_on: row.depends_on ?? [],
    unreachable: row.unreachable ?? false,
    muted_until: row.muted_until ? new Date(row.muted_until).toISOString() : null,
    maintenance: row.maintenance ?? false,
  };
}

/**
 * Puts a report's figures into the cached row, for a live push that must not wait for the database. In place: a
 * copy per report would live a whole interval and be promoted to the old generation, and at a thousand reports a
 * second the collections of those copies stall pushes.
 */
export function applyFigures(row: AgentRow, figures: LatestFigures, at: Date): AgentRow {
  return Object.assign(row, figures, { status: 'active' as const, last_report_at: at, updated_at: at });
}

/** The `agent.status_changed` payload of a transition. */
export function statusChange(row: AgentRow, previous: AgentStatus, previousUnreachable: boolean): EventMap['agent.status_changed'] {
  return { agent: toAgentDto(row), previous, previousUnreachable, status: row.status, changedAt: new Date().toISOString() };
}
