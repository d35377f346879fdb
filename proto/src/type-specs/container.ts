import { settingText, type MonitorTypeSpec } from '../monitor-type-specs';

/** A Docker or Podman container name (`[a-zA-Z0-9][a-zA-Z0-9_.-]+`), or its hex id (at least the 12 digits `docker ps` shows). */
export function isContainerName(text: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/.test(text);
}

/**
 * A container on a host running a Vigil agent, judged from the agent's last report (no connection of its own): up
 * while it runs (healthy, starting or without a health check), down when it exited, is unhealthy, is missing, or the
 * agent cannot read its engine; a failing check while the agent is silent is `unreachable` through the dependency on
 * the agent (`ref: 'agent'`). Uptime Kuma's `docker` monitor maps to it: `docker_container` is `containerName` (a
 * name or an id), `docker_host` becomes the agent on that host.
 */
export const CONTAINER = {
  name: { 'en-US': 'Container', 'zh-CN': '容器' },
  fields: [
    { name: 'agentId', kind: 'number', required: true, min: 1, max: 2_147_483_647, ref: 'agent' },
    {
      name: 'containerName',
      kind: 'text',
      required: true,
      help: true,
      max: 255,
      placeholder: 'web',
      valid: isContainerName,
      codes: { invalid: 'monitors.containerNameInvalid' },
    },
  ],
  sources: ['state', 'health', 'cpu', 'memory'],
  target: (parts) => `${settingText(parts, 'containerName')} @ agent ${settingText(parts, 'agentId')}`,
  icon: 'box',
} as const satisfies MonitorTypeSpec;
