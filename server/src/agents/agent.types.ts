import type { AgentProtocol, AgentStatus, DependencyRef } from '@vigil/proto';
import type { CounterState } from './figures';

/** One `agents` row as the driver returns it (bigint columns arrive as text). */
export interface AgentRow {
  id: number;
  name: string;
  hostname: string;
  ip_addresses: string[];
  os: string | null;
  version: string | null;
  platform: string | null;
  kernel: string | null;
  arch: string | null;
  cpu_model: string | null;
  cpu_cores: number | null;
  status: AgentStatus;
  protocol: AgentProtocol;
  interval_s: number;
  registration_id: number | null;
  cpu_usage: number | null;
  memory_total: string | number | null;
  memory_used: string | number | null;
  swap_total: string | number | null;
  swap_used: string | number | null;
  disk_total: string | number | null;
  disk_used: string | number | null;
  network_rx: number | null;
  network_tx: number | null;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  host_uptime: string | number | null;
  disks: Array<{ mount: string; fs: string; total: number; used: number }>;
  interfaces: Array<{ name: string; rx_rate: number; tx_rate: number }>;
  counters: CounterState | null;
  last_report_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Monitors and agents it depends on (see monitors/dependencies). */
  depends_on: DependencyRef[];
  /** Offline while a dependency was down (agent-state.ts). */
  unreachable: boolean;
  /** No notifications until then (alerts/mute); null: not muted. */
  muted_until?: Date | null;
  /** A maintenance window covers it (set and cleared by the maintenance sweep). */
  maintenance?: boolean;
}
