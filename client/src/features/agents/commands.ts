import { AGENT_DEFAULT_INTERVAL } from '@vigil/proto';

export const AGENT_OSES = ['linux', 'darwin', 'windows'] as const;
export type AgentOs = (typeof AGENT_OSES)[number];
export const AGENT_ARCHES = ['amd64', 'arm64'] as const;
export type AgentArch = (typeof AGENT_ARCHES)[number];

/** The agent program: one file that runs on Node.js 20.18 or newer, the same for every system. */
export const AGENT_PROGRAM = 'vigil-agent.mjs';
/** The reporting interval written into every command (spec section 9). */
export const START_INTERVAL = AGENT_DEFAULT_INTERVAL;

export interface InstallCommands {
  downloadUrl: string;
  /** Off Windows only (spec section 2). */
  downloadCommand: string | null;
  startCommand: string;
  /** Installs and starts the agent as a service: systemd on Linux, launchd on macOS, a scheduled task on Windows. */
  serviceCommand: string;
  /** Node.js build to install first, as named on nodejs.org (e.g. `linux-arm64`). */
  nodeBuild: string;
}

const PLAIN = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** A value as one POSIX shell word: as is when it holds nothing the shell reads, else in single quotes. */
function shellWord(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A value as one PowerShell argument (single quotes double inside a single-quoted string). */
function powershellWord(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replaceAll("'", "''")}'`;
}

/** The address without a trailing slash, so paths can be appended. */
export function normaliseServer(server: string): string {
  return server.trim().replace(/\/+$/, '');
}

const NODE_PLATFORM: Record<AgentOs, string> = { linux: 'linux', darwin: 'darwin', windows: 'win' };
const NODE_ARCH: Record<AgentArch, string> = { amd64: 'x64', arm64: 'arm64' };

/**
 * The guidance page's commands for one system (spec section 2): the download, a start command with the server, the
 * token and a 60-second interval, and the service set-up through the server's install scripts.
 */
export function installCommands(serverAddress: string, token: string, os: AgentOs, arch: AgentArch): InstallCommands {
  const server = normaliseServer(serverAddress);
  const downloadUrl = `${server}/downloads/${AGENT_PROGRAM}`;
  const nodeBuild = `${NODE_PLATFORM[os]}-${NODE_ARCH[arch]}`;
  if (os === 'windows') {
    const [s, t] = [powershellWord(server), powershellWord(token)];
    return {
      downloadUrl,
      downloadCommand: null,
      startCommand: `node ${AGENT_PROGRAM} --server ${s} --token ${t} --interval ${START_INTERVAL}`,
      serviceCommand: `iwr ${powershellWord(`${server}/downloads/install.ps1`)} -OutFile install.ps1; .\\install.ps1 -Server ${s} -Token ${t} -Interval ${START_INTERVAL}`,
      nodeBuild,
    };
  }
  const [s, t] = [shellWord(server), shellWord(token)];
  return {
    downloadUrl,
    downloadCommand: `curl -fsSLo ${AGENT_PROGRAM} ${shellWord(downloadUrl)}`,
    startCommand: `node ${AGENT_PROGRAM} --server ${s} --token ${t} --interval ${START_INTERVAL}`,
    serviceCommand: `curl -fsSL ${shellWord(`${server}/downloads/install.sh`)} | sudo bash -s -- --server ${s} --token ${t} --interval ${START_INTERVAL}`,
    nodeBuild,
  };
}
