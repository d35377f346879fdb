import { mkdtempSync, rmSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerCollector, healthOf, stateOf } from './containers';
import { endless, FakeEngine, fixture, json } from './fake-engine.testing';

const [WEB, API, DB, OLD] = (JSON.parse(fixture('containers.json')) as { Id: string }[]).map((c) => c.Id);
const MIB = 1024 * 1024;
const HOST_MEMORY = 16 * 1024 * MIB;

describe('containers through the Engine API socket', () => {
  let dir: string;
  let engine: FakeEngine;
  let now: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-engine-'));
    engine = new FakeEngine(join(dir, 'docker.sock'));
    engine.routes.set('/containers/json', json(fixture('containers.json')));
    engine.routes.set(`/containers/${WEB}/stats`, json(fixture('stats-web-1.json')));
    engine.routes.set(`/containers/${API}/stats`, json(fixture('stats-api-1.json')));
    engine.routes.set(`/containers/${DB}/stats`, json(fixture('stats-db.json')));
    await engine.listen();
    now = 1_000_000;
  });
  afterEach(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const collector = (options: Partial<ConstructorParameters<typeof ContainerCollector>[0]> = {}) =>
    new ContainerCollector({ sockets: [engine.socket], hostMemory: HOST_MEMORY, now: () => now, ...options });

  it('lists every container and reads stats of the running ones only, read-only', async () => {
    const containers = await collector().read(10_000);
    expect(containers!.map((c) => [c.id, c.name, c.image, c.state, c.health])).toEqual([
      [WEB.slice(0, 12), 'web', 'nginx:1.27', 'running', 'none'],
      [API.slice(0, 12), 'api', 'registry.example.com/team/api:2.4.1', 'running', 'unhealthy'],
      [DB.slice(0, 12), 'db', 'postgres:16', 'running', 'healthy'],
      [OLD.slice(0, 12), 'migrate', 'flyway/flyway:10', 'exited', 'none'],
    ]);
    expect(engine.asked.every((line) => line.startsWith('GET '))).toBe(true);
    expect(engine.asked).toContain('GET /containers/json?all=1');
    expect(engine.asked).toContain(`GET /containers/${WEB}/stats?stream=false&one-shot=true`);
    expect(engine.asked.some((line) => line.includes(OLD))).toBe(false);
  });

  it('maps the first report: memory without the reclaimable cache, no CPU or rates until a previous reading', async () => {
    const [web, api, db, old] = (await collector().read(10_000))!;
    // cgroup v2: usage 60 MiB minus inactive_file 10 MiB; the host's memory as the limit means unlimited.
    expect(web).toMatchObject({ cpu: 0, memory_used: 50 * MIB, memory_limit: 0, net_rx_rate: 0, block_read_rate: 0 });
    expect(api).toMatchObject({ cpu: 0, memory_used: 280 * MIB, memory_limit: 512 * MIB });
    // cgroup v1 with precpu filled: CPU from that pair at once (1 s of 20 s); total_inactive_file is what docker stats leaves out.
    expect(db).toMatchObject({ cpu: 5, memory_used: 200 * MIB, memory_limit: 0, net_rx_rate: 0, block_write_rate: 0 });
    expect(old).toMatchObject({ cpu: 0, memory_used: 0, memory_limit: 0, net_rx_rate: 0, net_tx_rate: 0 });
  });

  it('computes CPU % of the host and KB/s from the deltas between two reports', async () => {
    const sut = collector();
    await sut.read(10_000);
    engine.routes.set(`/containers/${WEB}/stats`, json(fixture('stats-web-2.json')));
    engine.routes.set(`/containers/${API}/stats`, json(fixture('stats-api-2.json')));
    now += 10_000;
    const [web, api, db] = (await sut.read(10_000))!;
    // 2 s of CPU out of 40 s of host CPU time (4 cores, 10 s); +10 MiB in, +5 MiB out, +20 MiB read, +1 MiB written.
    expect(web).toMatchObject({
      cpu: 5,
      memory_used: 58 * MIB,
      net_rx_rate: 1024,
      net_tx_rate: 512,
      block_read_rate: 2048,
      block_write_rate: 102.4,
    });
    // Two networks summed (+10 KiB each); no block I/O list from the engine.
    expect(api).toMatchObject({ cpu: 50, net_rx_rate: 2, net_tx_rate: 0, block_read_rate: 0, block_write_rate: 0 });
    expect(db).toMatchObject({ cpu: 0, net_rx_rate: 0 });
  });

  it('answers null when no socket is there, and says why', async () => {
    const sut = collector({ sockets: [join(dir, 'absent.sock')] });
    await expect(sut.read(10_000)).resolves.toBeNull();
    expect(sut.problem).toMatch(/absent\.sock GET \/containers\/json: ENOENT/);
  });

  it('tries the next socket (Podman) when the first is absent, and keeps the one that answered', async () => {
    const sut = collector({ sockets: [join(dir, 'absent.sock'), engine.socket] });
    await expect(sut.read(10_000)).resolves.toHaveLength(4);
    engine.asked.length = 0;
    await sut.read(10_000);
    expect(engine.asked[0]).toBe('GET /containers/json?all=1');
    expect(sut.problem).toBeNull();
  });

  it.each([
    ['an error status', (res: ServerResponse) => res.writeHead(500).end('{"message":"boom"}'), /answered HTTP 500/],
    ['an answer that is not JSON', json('<html>'), /not JSON/],
    ['an answer that is not a list', json('{"Id":"x"}'), /not a list/],
    ['an endless answer', (res: ServerResponse) => endless(res), /longer than 65536 bytes/],
    ['no answer at all', () => undefined, /no answer within 300 ms/],
  ])('answers null, within its bounds, for a list with %s', async (_, route, problem) => {
    engine.routes.set('/containers/json', route);
    const sut = collector({ requestTimeoutMs: 300, listMaxBytes: 65_536 });
    await expect(sut.read(10_000)).resolves.toBeNull();
    expect(sut.problem).toMatch(problem);
  });

  it('leaves a container whose stats hang, fail or never end at 0, the others unharmed, within the time given', async () => {
    engine.routes.set(`/containers/${WEB}/stats`, () => undefined);
    engine.routes.set(`/containers/${API}/stats`, (res) => endless(res));
    engine.routes.set(`/containers/${DB}/stats`, (res) => res.writeHead(404).end());
    const started = Date.now();
    const containers = await collector({ requestTimeoutMs: 300, statsMaxBytes: 65_536, now: Date.now }).read(2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(containers!.map((c) => [c.name, c.state, c.memory_used])).toEqual([
      ['web', 'running', 0],
      ['api', 'running', 0],
      ['db', 'running', 0],
      ['migrate', 'exited', 0],
    ]);
  });

  it('keeps only containers with a hex id, at most 500, with names and images clipped', async () => {
    const many = Array.from({ length: 510 }, (_, i) => ({
      Id: i.toString(16).padStart(64, '0'),
      Names: [`/${'n'.repeat(300)}`],
      Image: 'i'.repeat(300),
      State: 'exited',
      Status: 'Exited (1) 1 minute ago',
    }));
    engine.routes.set('/containers/json', json(JSON.stringify([{ Id: '../../etc', State: 'running' }, ...many])));
    const containers = (await collector().read(10_000))!;
    expect(containers).toHaveLength(500);
    expect(containers[0]).toMatchObject({ id: '000000000000', name: 'n'.repeat(255), image: 'i'.repeat(255) });
    expect(engine.asked.some((line) => line.includes('etc'))).toBe(false);
  });

  it.each([
    ['running', 'running'],
    ['paused', 'paused'],
    ['stopped', 'exited'],
    ['configured', 'created'],
    ['Running', 'running'],
    ['something new', 'exited'],
    [undefined, 'exited'],
  ])('reads the state %j as %s', (state, expected) => {
    expect(stateOf(state)).toBe(expected);
  });

  it.each([
    [{ Status: 'Up 5 minutes (unhealthy)' }, 'unhealthy'],
    [{ Status: 'Up 2 hours (healthy)' }, 'healthy'],
    [{ Status: 'Up 3 seconds (health: starting)' }, 'starting'],
    [{ Status: 'Up 3 seconds' }, 'none'],
    [{ Status: 'Up 2 hours (healthy)', Health: { Status: 'unhealthy' } }, 'unhealthy'],
    [{ Health: { Status: 'none' }, Status: 'Up 1 second' }, 'none'],
  ])('reads the health of %j as %s', (item, expected) => {
    expect(healthOf(item)).toBe(expected);
  });
});
