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
}

/** A bad command line or environment: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: vigil-agent --server URL [--token TOKEN] [options]

Streams this host's CPU, memory, disk, network and load figures to a Vigil server.

  --server URL        Vigil server address (env VIGIL_SERVER)
  --token TOKEN       registration token, needed once to enrol (env VIGIL_TOKEN)
  --interval SECONDS  seconds between reports, ${AGENT_LIMITS.intervalMin}-${AGENT_LIMITS.intervalMax} (env VIGIL_INTERVAL, default ${AGENT_DEFAULT_INTERVAL})
  --name NAME         display name (env VIGIL_NAME, default the hostname)
  --disks LIST        mount points to report, comma-separated (env VIGIL_DISKS, default every real file system)
  --interfaces LIST   network interfaces to report, comma-separated (env VIGIL_INTERFACES, default physical ones)
  --config PATH       where the agent keeps its credential (env VIGIL_CONFIG)
  --help, --version`;

const FLAGS = ['server', 'token', 'interval', 'name', 'disks', 'interfaces', 'config'] as const;
type Flag = (typeof FLAGS)[number];

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
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match || !(FLAGS as readonly string[]).includes(match[1])) throw new UsageError(`Unknown argument: ${argv[i]}`);
    const flag = match[1] as Flag;
    const value = match[2] ?? argv[++i];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`);
    given[flag] = value;
  }
  const pick = (flag: Flag) => {
    const value = given[flag] ?? env[`VIGIL_${flag.toUpperCase()}`];
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

  return {
    server: url.toString().replace(/\/+$/, ''),
    token: pick('token') ?? null,
    interval,
    name,
    disks: list(pick('disks')),
    interfaces: list(pick('interfaces')),
    config: pick('config') ?? null,
  };
}
