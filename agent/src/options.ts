import { AGENT_DEFAULT_INTERVAL, AGENT_LIMITS } from '@vigil/proto';

export interface AgentOptions {
  server: string;
  token: string | null;
  interval: number;
  name: string | null;
  /** Mount points to report; null: every real file system. */
  disks: string[] | null;
  /** Interfaces to report; null: every physical one. */
  interfaces: string[] | null;
  config: string | null;
  /** Read containers through the Engine API socket (off with `--no-containers`). */
  containers: boolean;
  /** The Engine API socket named by `--docker-socket` or a `unix://` `DOCKER_HOST`; null: the usual places. */
  dockerSocket: string | null;
  /** systemd units to watch, suffixed (`nginx` → `nginx.service`); null: none. */
  services: string[] | null;
  /** Block devices whose I/O to report; null: every whole physical disk. */
  ioDevices: string[] | null;
}

/** A bad command line or environment: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: vigil-agent --server URL [--token TOKEN] [options]

Streams this host's CPU, memory, disk, network and load figures to a Vigil server. Checks an admin assigns to
this agent (http, tcp, ping, dns, tls, websocket, grpc, postgres, mysql, redis) run from this host, so they reach
what only this host can (ping needs fping).

  --server URL        Vigil server address (env VIGIL_SERVER)
  --token TOKEN       registration token, needed once to enrol (env VIGIL_TOKEN)
  --interval SECONDS  seconds between reports, ${AGENT_LIMITS.intervalMin}-${AGENT_LIMITS.intervalMax} (env VIGIL_INTERVAL, default ${AGENT_DEFAULT_INTERVAL})
  --name NAME         display name (env VIGIL_NAME, default the hostname)
  --disks LIST        mount points to report, comma-separated (env VIGIL_DISKS, default every real file system)
  --interfaces LIST   network interfaces to report, comma-separated (env VIGIL_INTERFACES, default physical ones)
  --config PATH       where the agent keeps its credential (env VIGIL_CONFIG)
  --services LIST     systemd units to watch, comma-separated, e.g. nginx,postgresql (env VIGIL_SERVICES)
  --io-devices LIST   block devices whose I/O to report, e.g. sda,dm-0 (env VIGIL_IO_DEVICES, default whole disks)
  --docker-socket PATH  Docker or Podman Engine API socket (env VIGIL_DOCKER_SOCKET or DOCKER_HOST=unix://PATH,
                      default /var/run/docker.sock, then /run/podman/podman.sock)
  --no-containers     do not read containers (env VIGIL_NO_CONTAINERS=1)
  --help, --version`;

const FLAGS = ['server', 'token', 'interval', 'name', 'disks', 'interfaces', 'config', 'services', 'io-devices', 'docker-socket'] as const;
type Flag = (typeof FLAGS)[number];
/** Flags that take no value. */
const SWITCHES = ['no-containers'] as const;
type Switch = (typeof SWITCHES)[number];

const UNIT_SUFFIX = /\.(service|socket|timer|mount|automount|swap|target|path|slice|scope|device)$/;
/** systemd's unit name characters, short enough for the server's 128 with `.service` added; refused before systemctl sees it. */
const UNIT_NAME = /^(?!-)[A-Za-z0-9:_.@\\-]{1,120}$/;

function list(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length ? items : null;
}

/** Flags win over the environment. `--flag value` and `--flag=value` both work. */
export function parseOptions(argv: string[], env: Record<string, string | undefined>): AgentOptions {
  const given: Partial<Record<Flag, string>> = {};
  const switched = new Set<Switch>();
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (match && (SWITCHES as readonly string[]).includes(match[1]) && match[2] === undefined) {
      switched.add(match[1] as Switch);
      continue;
    }
    if (!match || !(FLAGS as readonly string[]).includes(match[1])) throw new UsageError(`Unknown argument: ${argv[i]}`);
    const flag = match[1] as Flag;
    const value = match[2] ?? argv[++i];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`);
    given[flag] = value;
  }
  const pick = (flag: Flag) => {
    const value = given[flag] ?? env[`VIGIL_${flag.toUpperCase().replace(/-/g, '_')}`];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const server = pick('server');
  if (!server) throw new UsageError('--server is required (the address of your Vigil server, e.g. https://vigil.example.com)');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`--server must be a URL such as https://vigil.example.com (got "${server}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--server must start with http:// or https://');

  const rawInterval = pick('interval');
  const interval = rawInterval === undefined ? AGENT_DEFAULT_INTERVAL : Number(rawInterval);
  if (!/^\d+$/.test(rawInterval ?? '60') || interval < AGENT_LIMITS.intervalMin || interval > AGENT_LIMITS.intervalMax) {
    throw new UsageError(
      `--interval must be a whole number of seconds from ${AGENT_LIMITS.intervalMin} to ${AGENT_LIMITS.intervalMax} (got "${rawInterval}")`,
    );
  }
  const name = pick('name') ?? null;
  if (name && name.length > 100) throw new UsageError('--name must be at most 100 characters');

  const services = list(pick('services'));
  for (const unit of services ?? []) {
    if (!UNIT_NAME.test(unit)) throw new UsageError(`--services: "${unit}" is not a systemd unit name`);
  }
  if (services && services.length > AGENT_LIMITS.servicesMax)
    throw new UsageError(`--services takes at most ${AGENT_LIMITS.servicesMax} units`);

  return {
    server: url.toString().replace(/\/+$/, ''),
    token: pick('token') ?? null,
    interval,
    name,
    disks: list(pick('disks')),
    interfaces: list(pick('interfaces')),
    config: pick('config') ?? null,
    containers: !switched.has('no-containers') && !/^(1|true|yes)$/i.test(env.VIGIL_NO_CONTAINERS ?? ''),
    dockerSocket: pick('docker-socket') ?? unixSocketOf(env.DOCKER_HOST),
    services: services && [...new Set(services.map((unit) => (UNIT_SUFFIX.test(unit) ? unit : `${unit}.service`)))],
    ioDevices: list(pick('io-devices')),
  };
}

/** Docker's own `DOCKER_HOST` names a socket as `unix:///path`; a tcp:// engine is not read (the socket is the permission). */
function unixSocketOf(host: string | undefined): string | null {
  const match = /^unix:\/\/(\/.+)$/.exec(host?.trim() ?? '');
  return match ? match[1] : null;
}
