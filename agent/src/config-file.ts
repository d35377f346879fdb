import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What the agent keeps between runs: its identity on one server. */
export interface StoredConfig {
  server: string;
  agent_id: number;
  credential: string;
}

export function defaultConfigPath(
  platform = process.platform,
  env: Record<string, string | undefined> = process.env,
  isRoot = process.getuid?.() === 0,
): string {
  if (platform === 'win32') return join(env.ProgramData ?? 'C:\\ProgramData', 'vigil-agent', 'config.json');
  if (isRoot) return '/etc/vigil-agent/config.json';
  return join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), '.config'), 'vigil-agent', 'config.json');
}

export function loadConfig(path: string): StoredConfig | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text);
    if (typeof value?.server === 'string' && typeof value?.credential === 'string' && Number.isInteger(value?.agent_id)) return value;
  } catch {
    // A damaged file is treated as absent: the agent enrols again if it has a token.
  }
  return null;
}

/** Written to a temporary file and renamed, readable by the owner only: it holds the credential. */
export function saveConfig(path: string, config: StoredConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
