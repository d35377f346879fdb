// `node bench/ping-methods.mjs [--targets N] [--count C] [--spread S] [--methods spawn,fping,netping]`
//
// CPU per ping check for three ways of pinging N loopback targets (127.0.0.1 … 127.0.x.y, all answered by the
// kernel), C echo requests each, the N checks spread evenly over S seconds (as the scheduler spreads monitors over
// their interval; S = 0 starts them all at once):
// - spawn: one `ping -n -q -c C -i 0.2 -W 1 <address>` process per check (iputils-ping), its summary line parsed.
// - fping: Vigil's PingChecker from server/dist (build first): checks due within 250 ms share one fping process.
// - netping: the net-ping npm package (raw-socket, native, needs CAP_NET_RAW) loaded from NETPING_DIR if installed
//   there (`npm install --prefix $NETPING_DIR net-ping`); C requests per target, one session for all.
// CPU = this process's user+system time plus that of the children it waited for (/proc/self/stat), over the run.
// Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { childCpuSeconds, cpuSeconds } from './lib/measure.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((part) => part.trim().split(/\s+/)),
);
const targets = Number(args.targets ?? 1000);
const count = Number(args.count ?? 3);
const spreadSeconds = Number(args.spread ?? 0);
const methods = (args.methods ?? 'spawn,fping,netping').split(',');

const addresses = Array.from({ length: targets }, (_, i) => `127.0.${Math.floor((i + 1) / 250)}.${((i + 1) % 250) + 1}`);

/** Starts check(i) for every target, spread over the window, and waits for all; returns their results. */
async function drive(check) {
  const gap = (spreadSeconds * 1000) / targets;
  const started = performance.now();
  const runs = [];
  for (let i = 0; i < targets; i += 1) {
    const wait = started + i * gap - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    runs.push(check(i));
  }
  return Promise.all(runs);
}

function spawnPing(address) {
  return new Promise((resolve) => {
    const child = spawn('ping', ['-n', '-q', '-c', String(count), '-i', '0.2', '-W', '1', address], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', () => resolve({ ok: false }));
    child.on('close', () => {
      const loss = /(\d+(?:\.\d+)?)% packet loss/.exec(output);
      const avg = /= [\d.]+\/([\d.]+)\//.exec(output);
      resolve({ ok: Boolean(loss && Number(loss[1]) < 100), responseTime: avg ? Number(avg[1]) : null });
    });
  });
}

async function fpingChecker() {
  const require = createRequire(import.meta.url);
  const { PingChecker } = require('../server/dist/monitors/types/ping/ping.checker.js');
  const { AddressDenyList } = require('../server/dist/common/outbound.js');
  const { runFping } = require('../server/dist/monitors/types/ping/fping.js');
  let processes = 0;
  const counting = new PingChecker({ outbound: AddressDenyList.parse('') }, (run) => {
    processes += 1;
    return runFping(run);
  });
  return {
    check: (i) => counting.check({ id: i, type: 'ping', hostname: addresses[i], packetCount: count, timeout: 10, assertions: [] }),
    processes: () => processes,
    close: () => counting.close(),
  };
}

async function netPing() {
  const dir = process.env.NETPING_DIR;
  if (!dir) return null;
  const require = createRequire(join(dir, 'package.json'));
  let ping;
  try {
    ping = require('net-ping');
  } catch (error) {
    console.log(`netping: cannot load net-ping from ${dir}: ${error.message}`);
    return null;
  }
  const session = ping.createSession({ retries: 0, timeout: 1000 });
  const once = (address) =>
    new Promise((resolve) => session.pingHost(address, (error, _target, sent, received) => resolve(error ? null : received - sent)));
  return {
    check: async (i) => {
      const rtts = [];
      for (let n = 0; n < count; n += 1) {
        if (n > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        rtts.push(await once(addresses[i]));
      }
      return { ok: rtts.some((rtt) => rtt !== null) };
    },
    close: async () => session.close(),
  };
}

const cpu = () => cpuSeconds(process.pid) + childCpuSeconds(process.pid);

console.log(`${targets} loopback targets, ${count} requests each, spread over ${spreadSeconds} s`);
for (const method of methods) {
  let runner;
  let extra = () => '';
  if (method === 'spawn') runner = { check: (i) => spawnPing(addresses[i]), close: async () => undefined };
  else if (method === 'fping') {
    runner = await fpingChecker();
    extra = () => `, ${runner.processes()} fping processes`;
  } else if (method === 'netping') runner = await netPing();
  if (!runner) {
    console.log(`${method}: skipped (not available)`);
    continue;
  }
  const cpuBefore = cpu();
  const started = performance.now();
  const results = await drive(runner.check);
  const wall = (performance.now() - started) / 1000;
  const used = cpu() - cpuBefore;
  await runner.close();
  const ok = results.filter((result) => result.ok).length;
  console.log(
    `${method}: ${ok}/${targets} up, wall ${wall.toFixed(1)} s, CPU ${used.toFixed(2)} s = ${((used * 1000) / targets).toFixed(2)} ms per check${extra()}`,
  );
}
