import type { AgentDto, AgentMetricPoint, AgentsResponse } from '@vigil/proto';

/** A complete agent as the API reads it, with overrides. */
export function makeAgent(overrides: Partial<AgentDto> = {}): AgentDto {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Agent ${id}`,
    hostname: `host-${id}`,
    ip_address: `10.0.0.${id}`,
    ip_addresses: [`10.0.0.${id}`],
    os: 'Debian GNU/Linux 12',
    version: '1.0.0',
    platform: 'linux',
    kernel: '6.1.0-18-amd64',
    arch: 'x64',
    cpu_model: 'AMD EPYC 7B13',
    cpu_cores: 4,
    status: 'active',
    protocol: 'socket',
    interval: 60,
    cpu_usage: 12.34,
    memory_total: 8 * 1024 ** 3,
    memory_used: 2 * 1024 ** 3,
    swap_total: 0,
    swap_used: 0,
    disk_total: 100 * 1024 ** 3,
    disk_used: 80 * 1024 ** 3,
    network_rx: 12.5,
    network_tx: 2048,
    load1: 0.52,
    load5: 0.48,
    load15: 0.4,
    host_uptime: 3 * 86_400 + 4 * 3600 + 5 * 60,
    disks: [{ mount: '/', fs: 'ext4', total: 100 * 1024 ** 3, used: 80 * 1024 ** 3 }],
    interfaces: [{ name: 'eth0', rx_rate: 12.5, tx_rate: 2048 }],
    registration_id: 1,
    created_at: '2025-03-01T08:00:00.000Z',
    updated_at: '2025-03-02T10:30:00.000Z',
    depends_on: [],
    unreachable: false,
    muted_until: null,
    maintenance: false,
    ...overrides,
  };
}

export function makePoint(overrides: Partial<AgentMetricPoint> = {}): AgentMetricPoint {
  return { time: '2025-03-02T10:00:00.000Z', cpu: 10, cpu_max: 20, memory: 30, disk: 40, rx: 5, tx: 6, load1: 0.5, ...overrides };
}

/** A `GET /api/agents` answer whose counts follow the agents given. */
export function agentsPage(agents: AgentDto[], extra: Partial<AgentsResponse> = {}): AgentsResponse {
  const counts = { active: 0, inactive: 0, connecting: 0, unreachable: 0, maintenance: 0, total: agents.length };
  for (const agent of agents) {
    counts[agent.status === 'inactive' && agent.unreachable ? 'unreachable' : agent.status] += 1;
    if (agent.maintenance) counts.maintenance += 1;
  }
  return { success: true, agents, total: agents.length, page: 1, pageSize: 100, counts, ...extra };
}
