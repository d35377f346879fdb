import { execFile } from 'node:child_process';
import { AgentServiceReport, SERVICE_STATES, ServiceState } from '@vigil/proto';

/** Runs a program with arguments (no shell) and answers its standard output. */
export type Runner = (file: string, args: string[]) => Promise<string>;

/** systemctl's answer for 100 units is a few KB; a bounded wait and output keep a stuck systemd from holding a report. */
const TIMEOUT_MS = 5_000;
const OUTPUT_MAX = 256 * 1024;
const SUB_STATE_MAX = 32;

export const execRunner: Runner = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(file, args, { timeout: TIMEOUT_MS, maxBuffer: OUTPUT_MAX }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      // systemd's own words ("System has not been booted with systemd…") say more than "Command failed".
      const said = stderr.trim().split('\n')[0];
      reject(said && error.code !== 'ENOENT' ? Object.assign(new Error(said), { code: error.code }) : error);
    });
  });

/**
 * Parses `systemctl show --property=Id,LoadState,ActiveState,SubState -- a b …`: one block of `Key=value` lines per
 * unit, in the order asked, separated by a blank line. A unit systemd does not know is reported `unknown`.
 */
export function parseSystemctlShow(output: string, units: string[]): AgentServiceReport[] {
  const blocks = output
    .split(/\n\s*\n/)
    .map(parseBlock)
    .filter((block) => block.size > 0);
  return units.map((unit, i) => {
    // The order is systemd's promise; an alias answers with its real Id, so the asked name is kept.
    const block = blocks.length === units.length ? blocks[i] : blocks.find((b) => b.get('Id') === unit);
    if (!block) return { name: unit, state: 'unknown' };
    const active = block.get('ActiveState') ?? '';
    const state: ServiceState =
      block.get('LoadState') === 'not-found' || !(SERVICE_STATES as readonly string[]).includes(active)
        ? 'unknown'
        : (active as ServiceState);
    const sub = (block.get('LoadState') === 'not-found' ? 'not-found' : (block.get('SubState') ?? '')).slice(0, SUB_STATE_MAX);
    return { name: unit, state, ...(sub ? { sub_state: sub } : {}) };
  });
}

function parseBlock(block: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of block.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line.trim());
    if (match) entries.set(match[1], match[2].trim());
  }
  return entries;
}

/** Errors that mean "this host has no systemd to ask", as opposed to one failed call. */
export class SystemdMissingError extends Error {}

/** The states of the named systemd units, with one `systemctl show` call per report. */
export async function readServices(units: string[], run: Runner = execRunner): Promise<AgentServiceReport[]> {
  let output: string;
  try {
    output = await run('systemctl', ['show', '--property=Id,LoadState,ActiveState,SubState', '--', ...units]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SystemdMissingError('systemctl not found: services are not reported', { cause: error });
    throw new Error(`systemctl show failed: ${((error as Error).message ?? '').split('\n')[0].slice(0, 200)}`, { cause: error });
  }
  return parseSystemctlShow(output, units);
}
