import { AGENT_LIMITS, AgentDiskReport, AgentHello, AgentInterfaceReport, AgentReport } from '@vigil/proto';
import { insightOf } from './insight-validation';

/** A refused message: the first problem found, as a field path and what was wrong with it. */
export class MessageError extends Error {}

/** `refused`: items left out of an accepted message (protocol 2's containers, sensors…), each named. */
export type Checked<T> = { ok: true; value: T; refused?: string[] } | { ok: false; error: string };

/** Largest byte count we believe (1 EiB): anything above is a broken counter, not a machine. */
const MAX_BYTES = AGENT_LIMITS.bytesMax;
const MAX_RATE_KBS = AGENT_LIMITS.rateMaxKbs;

function fail(path: string, problem: string): never {
  throw new MessageError(`${path} ${problem}`);
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  return value as Record<string, unknown>;
}

export function text(value: unknown, path: string, { required = true, max = AGENT_LIMITS.textMax as number } = {}): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) fail(path, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') fail(path, 'must be text');
  // Control characters never belong in a host name, OS or mount point; they would only garble screens and logs.
  if (/[\u0000-\u001f\u007f]/.test(value)) fail(path, 'must not contain control characters');
  if (value.length > max) fail(path, `must be at most ${max} characters`);
  return value;
}

export function num(value: unknown, path: string, min: number, max: number, { required = true, integer = false } = {}): number | undefined {
  if (value === undefined || value === null) {
    if (required) fail(path, 'is required');
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'must be a number');
  if (integer && !Number.isInteger(value)) fail(path, 'must be a whole number');
  if (value < min || value > max) fail(path, `must be from ${min} to ${max}`);
  return value;
}

export function list(value: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be a list');
  if (value.length > max) fail(path, `must have at most ${max} items`);
  return value;
}

function checked<T>(validate: (refused: string[]) => T): Checked<T> {
  const refused: string[] = [];
  try {
    const value = validate(refused);
    return refused.length ? { ok: true, value, refused } : { ok: true, value };
  } catch (error) {
    if (error instanceof MessageError) return { ok: false, error: error.message };
    throw error;
  }
}

export function checkHello(input: unknown): Checked<AgentHello> {
  return checked(() => {
    const hello = record(input, 'hello');
    const addresses = list(hello.ip_addresses ?? [], 'hello.ip_addresses', AGENT_LIMITS.ipAddressesMax).map((ip, i) =>
      text(ip, `hello.ip_addresses[${i}]`, { max: 64 })!,
    );
    return {
      hostname: text(hello.hostname, 'hello.hostname')!,
      name: text(hello.name, 'hello.name', { required: false, max: 100 }),
      ip_addresses: addresses,
      os: text(hello.os, 'hello.os')!,
      platform: text(hello.platform, 'hello.platform')!,
      kernel: text(hello.kernel, 'hello.kernel', { required: false }),
      arch: text(hello.arch, 'hello.arch', { required: false }),
      cpu_model: text(hello.cpu_model, 'hello.cpu_model', { required: false }),
      cpu_cores: num(hello.cpu_cores, 'hello.cpu_cores', 1, 65_536, { required: false, integer: true }),
      agent_version: text(hello.agent_version, 'hello.agent_version', { max: 64 })!,
      interval: num(hello.interval, 'hello.interval', AGENT_LIMITS.intervalMin, AGENT_LIMITS.intervalMax, {
        required: false,
        integer: true,
      }),
    };
  });
}

/** A report as stored: every figure within physical bounds, used never above total, time within the window. */
export function checkReport(input: unknown, now = Date.now(), path = 'report'): Checked<AgentReport> {
  return checked((refused) => reportOf(input, now, path, refused));
}

export function checkBacklog(input: unknown, now = Date.now()): Checked<AgentReport[]> {
  return checked((refused) =>
    list(input, 'backlog', AGENT_LIMITS.backlogMax).map((item, i) => reportOf(item, now, `backlog[${i}]`, refused)),
  );
}

function reportOf(input: unknown, now: number, path: string, refused: string[]): AgentReport {
  const report = record(input, path);
  const timestamp = num(report.timestamp, `${path}.timestamp`, now - AGENT_LIMITS.reportMaxAgeMs, now + AGENT_LIMITS.reportMaxSkewMs, {
    integer: true,
  })!;
  const memoryTotal = num(report.memory_total, `${path}.memory_total`, 1, MAX_BYTES)!;
  const memoryUsed = num(report.memory_used, `${path}.memory_used`, 0, memoryTotal)!;
  const swapTotal = num(report.swap_total, `${path}.swap_total`, 0, MAX_BYTES, { required: false });
  const swapUsed = num(report.swap_used, `${path}.swap_used`, 0, swapTotal ?? MAX_BYTES, { required: false });
  let load: [number, number, number] | undefined;
  if (report.load !== undefined && report.load !== null) {
    const values = list(report.load, `${path}.load`, 3);
    if (values.length !== 3) fail(`${path}.load`, 'must have three numbers (1, 5 and 15 minutes)');
    load = values.map((v, i) => num(v, `${path}.load[${i}]`, 0, 1_000_000)!) as [number, number, number];
  }
  const disks = checkDiskSum(
    list(report.disks ?? [], `${path}.disks`, AGENT_LIMITS.disksMax).map((item, i) => diskOf(item, `${path}.disks[${i}]`)),
    `${path}.disks`,
  );
  const interfaces = list(report.interfaces ?? [], `${path}.interfaces`, AGENT_LIMITS.interfacesMax).map((item, i) =>
    interfaceOf(item, `${path}.interfaces[${i}]`),
  );
  return {
    timestamp,
    cpu: num(report.cpu, `${path}.cpu`, 0, 100)!,
    load,
    memory_total: memoryTotal,
    memory_used: memoryUsed,
    swap_total: swapTotal,
    swap_used: swapUsed,
    disks,
    interfaces,
    uptime: num(report.uptime, `${path}.uptime`, 0, 100 * 365 * 86_400, { required: false }),
    ...insightOf(report, path, refused),
  };
}

/**
 * Each disk is bounded alone, but the agent's row keeps their sum in a bigint: 64 disks of 1 EiB would overflow it
 * (and fail the whole storage batch), so the sum has the same bound as one figure.
 */
export function checkDiskSum<T extends { total: number }>(disks: T[], path: string): T[] {
  const total = disks.reduce((sum, disk) => sum + disk.total, 0);
  if (total > MAX_BYTES) fail(path, `must add up to at most ${MAX_BYTES} bytes in total`);
  return disks;
}

function diskOf(input: unknown, path: string): AgentDiskReport {
  const disk = record(input, path);
  const total = num(disk.total, `${path}.total`, 0, MAX_BYTES)!;
  return {
    mount: text(disk.mount, `${path}.mount`)!,
    fs: text(disk.fs, `${path}.fs`, { required: false, max: 64 }) ?? '',
    total,
    used: num(disk.used, `${path}.used`, 0, total)!,
  };
}

function interfaceOf(input: unknown, path: string): AgentInterfaceReport {
  const nic = record(input, path);
  return {
    name: text(nic.name, `${path}.name`, { max: 64 })!,
    rx_rate: num(nic.rx_rate, `${path}.rx_rate`, 0, MAX_RATE_KBS)!,
    tx_rate: num(nic.tx_rate, `${path}.tx_rate`, 0, MAX_RATE_KBS)!,
    rx_bytes: num(nic.rx_bytes, `${path}.rx_bytes`, 0, MAX_BYTES)!,
    tx_bytes: num(nic.tx_bytes, `${path}.tx_bytes`, 0, MAX_BYTES)!,
  };
}
