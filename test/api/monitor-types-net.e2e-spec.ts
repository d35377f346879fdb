import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import { createTestAuthority, daysFromNow } from '../../server/src/monitors/checkers/fakes/certificates.testing';
import { startDnsServer, type FakeDnsServer } from '../../server/src/monitors/checkers/fakes/dns-server.testing';
import { startTcpServer, type FakeTcpServer } from '../../server/src/monitors/checkers/fakes/tcp-server.testing';
import { startTlsServer, type FakeTlsServer } from '../../server/src/monitors/checkers/fakes/tls-server.testing';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

/**
 * HTTP (with assertions), TCP, TLS and DNS monitors on the real server against loopback fakes: up, a failure (a
 * failing assertion or the fake failing) → down with the named error, and recovery. The server trusts the test's own
 * certificate authority through NODE_EXTRA_CA_CERTS, as an operator trusts an internal one.
 */
describe('network monitor types', () => {
  const authority = createTestAuthority();
  const caDir = mkdtempSync(join(tmpdir(), 'vigil-ca-'));
  const fiveDays = authority.issue({ validTo: daysFromNow(5) });
  let app: TestApp;
  let member: Session;
  let https: FakeTlsServer;
  let tls: FakeTlsServer;
  let tcp: FakeTcpServer;
  let dns: FakeDnsServer;
  let health = { status: 'ok' };

  beforeAll(async () => {
    writeFileSync(join(caDir, 'ca.pem'), authority.cert);
    const answer = (req: IncomingMessage, res: ServerResponse) =>
      req.url === '/health'
        ? res.writeHead(200, { 'content-type': 'application/json', 'X-Version': '1.2.3' }).end(JSON.stringify(health))
        : res.writeHead(404).end();
    [app, https, tls, tcp, dns] = await Promise.all([
      startTestApp({ env: { ...USERS_REACH_LOOPBACK, NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem') } }),
      startTlsServer(fiveDays, answer),
      startTlsServer(fiveDays),
      startTcpServer(),
      startDnsServer({ 'app.test': { A: ['192.0.2.10'] } }),
    ]);
    member = await createUser(app.url, await registerFirstAdmin(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([https?.close(), tls?.close(), tcp?.close(), dns?.close()]);
    rmSync(caDir, { recursive: true, force: true });
  });

  const api = () => request(app.url);

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // No retries: one failed check is down at once.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ retries: 0, ...body })
      .expect(201);
    return response.monitor;
  }

  /** Runs a check now; answers the stored check and the monitor as read after it. */
  async function check(id: number): Promise<{ status: string; error: string | null; monitor: MonitorDto }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
    return { status: body.check.status, error: body.check.error, monitor: body.monitor };
  }

  it('checks an https endpoint with JSON and header assertions, recording its certificate', async () => {
    const monitor = await create({
      name: 'api health',
      url: `https://localhost:${https.port}/health`,
      assertions: [
        { source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' },
        { source: 'header', path: 'X-Version', operator: 'matches', value: '^1\\.' },
      ],
    });
    const up = await check(monitor.id);
    expect(up).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    expect(up.monitor.certificate).toMatchObject({
      subject: 'CN=localhost, O=Vigil Tests',
      issuer: 'CN=Vigil Test CA, O=Vigil Tests',
      days_remaining: 4,
    });

    health = { status: 'degraded' };
    expect(await check(monitor.id)).toMatchObject({
      status: 'down',
      error: '$.status eq "ok" failed: got "degraded"',
      monitor: { status: 'down' },
    });

    health = { status: 'ok' };
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up' } });
  });

  it('checks a TCP port: refused while it is closed, up again once it listens', async () => {
    const monitor = await create({ name: 'port', type: 'tcp', hostname: '127.0.0.1', port: tcp.port });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up' } });
    await tcp.stop();
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'Connection refused', monitor: { status: 'down' } });
    await tcp.start();
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up' } });
  });

  it('checks a TLS endpoint: days remaining, an assertion on them, an expired certificate, recovery', async () => {
    const monitor = await create({
      name: 'tls',
      type: 'tls',
      hostname: 'localhost',
      port: tls.port,
      assertions: [{ source: 'certificateDays', operator: 'gt', value: 3 }],
    });
    const up = await check(monitor.id);
    expect(up).toMatchObject({ status: 'up', monitor: { status: 'up', certificate: { days_remaining: 4 } } });

    tls.setCertificate(authority.issue({ validTo: daysFromNow(2.5) }));
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'certificateDays gt 3 failed: got 2' });

    tls.setCertificate(authority.issue({ validFrom: daysFromNow(-30), validTo: daysFromNow(-1) }));
    const expired = await check(monitor.id);
    expect(expired).toMatchObject({ status: 'down', error: 'TLS error: certificate has expired' });
    expect(expired.monitor.certificate?.days_remaining).toBeLessThan(0);

    tls.setCertificate(fiveDays);
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up', certificate: { days_remaining: 4 } } });
  });

  it('checks a DNS record: a changed answer fails its assertion, NXDOMAIN is named, recovery', async () => {
    const monitor = await create({
      name: 'dns',
      type: 'dns',
      hostname: 'app.test',
      dnsRecordType: 'A',
      dnsServer: dns.address,
      assertions: [{ source: 'dnsAnswer', operator: 'eq', value: '192.0.2.10' }],
    });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up' } });

    dns.setZone({ 'app.test': { A: ['192.0.2.66'] } });
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'dnsAnswer eq "192.0.2.10" failed: got ["192.0.2.66"]' });

    dns.setZone({});
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'NXDOMAIN: app.test does not exist' });

    dns.setZone({ 'app.test': { A: ['192.0.2.10'] } });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', monitor: { status: 'up' } });
  });

  it('names a short DNS answer as malformed, not as a RangeError (issue 27)', async () => {
    dns.setZone({ 'v6.test': { AAAA: ['2001:db8::1'] } });
    const monitor = await create({ name: 'dns short', type: 'dns', hostname: 'v6.test', dnsRecordType: 'AAAA', dnsServer: dns.address });
    expect(await check(monitor.id)).toMatchObject({ status: 'up' });

    dns.setMode('short');
    try {
      const down = await check(monitor.id);
      expect(down).toMatchObject({ status: 'down', error: 'Bad DNS query or answer (Malformed DNS answer: AAAA record of 2 bytes)' });
      expect(down.error).not.toMatch(/RangeError|out of range|offset/);
    } finally {
      dns.setMode('normal');
    }
    expect(await check(monitor.id)).toMatchObject({ status: 'up' });
  });
});
