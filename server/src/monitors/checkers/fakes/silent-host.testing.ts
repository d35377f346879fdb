import { execFileSync } from 'node:child_process';

/**
 * An address that stops answering ping when the test says so: a network namespace joined to this one by a veth
 * pair on a /30 of 198.18.0.0/15 (the benchmarking range, never routed), whose kernel ignores echo requests while
 * `answer(false)`. Needs root and iproute2; everything is removed by close().
 */
export interface SilentHost {
  /** The namespace's end of the link: ping it. */
  address: string;
  answer(on: boolean): void;
  /** Takes the namespace's end of the link down (or up): echo requests then meet ICMP `Host unreachable`. */
  unplug(on: boolean): void;
  close(): void;
}

/** The host, or why it cannot be made here (the caller skips naming the reason). */
export function createSilentHost(): { host: SilentHost } | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: 'needs root to create a network namespace' };
  const tag = `${process.pid % 100_000}`;
  const namespace = `vigil-ping-${tag}`;
  const outside = `vgp${tag}a`;
  const inside = `vgp${tag}b`;
  // A /30 per process id, so parallel test workers do not collide.
  const block = (process.pid % 16_384) * 4;
  const subnet = `198.18.${Math.floor(block / 256) % 256}.${block % 256}`;
  const [a, b, c, d] = subnet.split('.').map(Number);
  const near = `${a}.${b}.${c}.${d + 1}`;
  const far = `${a}.${b}.${c}.${d + 2}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const inNamespace = (command: string) => execFileSync('ip', ['netns', 'exec', namespace, 'sh', '-c', command], { stdio: 'ignore' });
  const close = () => {
    for (const args of [
      ['link', 'del', outside],
      ['netns', 'del', namespace],
    ]) {
      try {
        ip(...args);
      } catch {
        // Already gone.
      }
    }
  };
  try {
    close();
    ip('netns', 'add', namespace);
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', namespace);
    ip('addr', 'add', `${near}/30`, 'dev', outside);
    ip('link', 'set', outside, 'up');
    inNamespace(`ip addr add ${far}/30 dev ${inside} && ip link set ${inside} up && ip link set lo up`);
  } catch (error) {
    close();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { unavailable: `cannot create a network namespace: ${stderr || (error as Error).message}` };
  }
  return {
    host: {
      address: far,
      answer: (on) => inNamespace(`echo ${on ? 0 : 1} > /proc/sys/net/ipv4/icmp_echo_ignore_all`),
      unplug: (on) => inNamespace(`ip link set ${inside} ${on ? 'down' : 'up'}`),
      close,
    },
  };
}
