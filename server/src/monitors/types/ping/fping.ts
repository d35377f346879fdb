import { spawn } from 'node:child_process';

/** One fping run over many addresses: every address gets `count` echo requests, `periodMs` apart. */
export interface FpingRun {
  addresses: string[];
  count: number;
  /** Between two requests to one address; also how long each request waits for its reply. */
  periodMs: number;
  /** fping is stopped (and what it printed so far is read) after this long. */
  limitMs: number;
}

/** What fping saw of one address: each request's round trip in ms (null: lost), and an ICMP error if one came. */
export interface HostReplies {
  rtts: (number | null)[];
  /** e.g. `Host unreachable`, `Network is unreachable`; null when nothing but replies or silence came. */
  note: string | null;
}

/** Gap between any two requests fping sends (its default is 10 ms): 1,000 requests a second per run. */
export const SEND_INTERVAL_MS = 1;
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export class FpingUnavailableError extends Error {}

/**
 * `fping -C <count> -p <period> -t <period> -i 1 <address…>`: one process for many addresses. It needs a raw ICMP
 * socket, which Debian's package grants the binary (CAP_NET_RAW file capability) so that Vigil needs no root; its
 * fallback to unprivileged datagram sockets gets no replies in fping 5.1 (docs/decisions.md, "Ping"). Resolves with
 * what it printed per address; rejects when fping cannot run at all.
 */
export function runFping(run: FpingRun, binary = 'fping'): Promise<Map<string, HostReplies>> {
  // Not -q: that would also hide the ICMP errors (`Host unreachable`). Each request's line goes to stdout, ignored;
  // the errors and the summary go to stderr.
  const args = ['-C', String(run.count), '-p', String(run.periodMs), '-t', String(run.periodMs), '-i', String(SEND_INTERVAL_MS)];
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args, ...run.addresses], { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT_BYTES) output += chunk;
    });
    // SIGINT makes fping print its summary of what it has so far; SIGKILL if it does not stop.
    const stop = setTimeout(() => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 500).unref();
    }, run.limitMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(stop);
      reject(
        error.code === 'ENOENT' ? new FpingUnavailableError('fping is not installed on the server (install the fping package)') : error,
      );
    });
    child.on('close', (code) => {
      clearTimeout(stop);
      const replies = parseFpingOutput(output, run.count);
      // 0: all answered, 1: some did not, 2: a name did not resolve; above: fping could not run (bad option, no socket).
      if (replies.size === 0 && code !== null && code > 2) {
        reject(new FpingUnavailableError(`fping failed: ${firstLine(output) || `exit code ${code}`}`));
        return;
      }
      resolve(replies);
    });
  });
}

/**
 * Reads fping's `-C` summary on stderr (`127.0.0.1 : 0.04 - 0.05`, one line per address, `-` for a lost request) and the
 * ICMP errors it reports (`ICMP Host Unreachable from 10.0.0.1 for ICMP Echo sent to 10.0.0.9`).
 */
export function parseFpingOutput(output: string, count: number): Map<string, HostReplies> {
  const replies = new Map<string, HostReplies>();
  const notes = new Map<string, string>();
  for (const line of output.split('\n')) {
    const summary = /^(\S+)\s+:((?:\s+(?:-|\d+(?:\.\d+)?))+)\s*$/.exec(line);
    if (summary) {
      const rtts = summary[2]
        .trim()
        .split(/\s+/)
        .slice(0, count)
        .map((value) => (value === '-' ? null : Number(value)));
      while (rtts.length < count) rtts.push(null);
      replies.set(summary[1], { rtts, note: null });
      continue;
    }
    const icmp = /^ICMP (.+?) from \S+ for ICMP Echo sent to (\S+)/.exec(line);
    if (icmp) {
      notes.set(icmp[2], sentenceCase(icmp[1]));
      continue;
    }
    const sendError = /^(\S+?):? error while sending ping: (.+)$/.exec(line);
    if (sendError) notes.set(sendError[1], sentenceCase(sendError[2]));
  }
  for (const [address, note] of notes) {
    const entry = replies.get(address);
    if (entry) entry.note = note;
    else replies.set(address, { rtts: new Array<number | null>(count).fill(null), note });
  }
  return replies;
}

function sentenceCase(text: string): string {
  const trimmed = text.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1).toLowerCase();
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? '';
}
