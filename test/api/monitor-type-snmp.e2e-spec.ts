import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import {
  SNMP_OIDS,
  SNMP_USER,
  startSnmpAgent,
  startUdpServer,
  type FakeSnmpAgent,
} from '../../server/src/monitors/types/snmp/snmp-agent.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 6: an `snmp` monitor GETs one OID from a real net-snmp agent the spec starts on loopback
 * (v2c with a community, v3 authPriv), its value the `value` assertion source; a missing OID, a wrong community and a
 * hostile agent are named failures within the monitor's timeout, and bad settings a 400 naming the field.
 */
describe('snmp monitors', () => {
  let app: TestApp;
  let agent: FakeSnmpAgent;
  let admin: Session;

  beforeAll(async () => {
    agent = await startSnmpAgent('public');
    // Loopback is refused to members by default (USER_OUTBOUND_DENY): monitors are created as the admin.
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await agent?.close();
  });

  const api = () => request(app.url);
  const v2c = (snmpOid: string) => ({ type: 'snmp', hostname: '127.0.0.1', port: agent.port, snmpOid, radiusPassword: 'public' });

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // Paused, no retries: each check is run by hand and one failure is down at once.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ retries: 0, active: false, ...body })
      .expect(201);
    return response.monitor;
  }

  async function check(id: number): Promise<{ status: string; error: string | null }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error };
  }

  it('is up with the value, down by name when an assertion on it fails, and up again when the value recovers', async () => {
    const monitor = await create({
      name: 'switch uptime',
      ...v2c(SNMP_OIDS.number),
      assertions: [{ source: 'value', operator: 'gte', value: 40 }],
    });
    expect(monitor).toMatchObject({
      type: 'snmp',
      hostname: '127.0.0.1',
      port: agent.port,
      // Kuma's defaults, and the community masked in every read.
      settings: { snmpVersion: '2c', snmpOid: SNMP_OIDS.number, radiusPassword: '••••••••' },
    });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    agent.setNumber(3);
    // The value is text, as for the database types; compared as a number since both sides are numeric.
    expect(await check(monitor.id)).toEqual({ status: 'down', error: 'value gte 40 failed: got "3"' });

    agent.setNumber(42);
    // An edit that keeps the destination keeps the stored community without it being sent again.
    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ name: 'switch uptime (edited)' }).expect(200);
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
  });

  it('tests an SNMPv3 authPriv GET of a text value, with an assertion on it', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({
        name: 'v3',
        type: 'snmp',
        hostname: '127.0.0.1',
        port: agent.port,
        snmpVersion: '3',
        snmpOid: SNMP_OIDS.text,
        snmpV3Username: SNMP_USER.name,
        snmpV3AuthProtocol: SNMP_USER.authProtocol,
        snmpV3AuthKey: SNMP_USER.authKey,
        snmpV3PrivProtocol: SNMP_USER.privProtocol,
        snmpV3PrivKey: SNMP_USER.privKey,
        assertions: [{ source: 'value', operator: 'contains', value: 'switch' }],
      })
      .expect(200);
    expect(body.result).toMatchObject({ ok: true, error: null });
    expect(body.result.assertions).toEqual([expect.objectContaining({ ok: true, actual: 'Vigil test switch' })]);
  });

  it('is down with a named error for an OID the agent does not have', async () => {
    const monitor = await create({ name: 'missing', ...v2c(SNMP_OIDS.missing) });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: `noSuchObject: the agent has no object ${SNMP_OIDS.missing}` });
  });

  it('times out within the monitor timeout on a wrong community', async () => {
    const monitor = await create({ name: 'wrong community', ...v2c(SNMP_OIDS.text), radiusPassword: 'private', timeout: 2, interval: 60 });
    const started = Date.now();
    const result = await check(monitor.id);
    expect(result).toEqual({
      status: 'down',
      error: 'Timeout after 2 s: no SNMP answer (a wrong community or v3 user is dropped silently)',
    });
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it('fails at once, named, against an agent that answers garbage', async () => {
    const hostile = await startUdpServer(() => [Buffer.alloc(60_000, 0x30)]);
    try {
      const monitor = await create({ name: 'hostile', ...v2c(SNMP_OIDS.text), port: hostile.port, timeout: 10, interval: 60 });
      const started = Date.now();
      const result = await check(monitor.id);
      expect(result.status).toBe('down');
      expect(result.error).toMatch(/^Unreadable SNMP answer: /);
      expect(hostile.received).toBe(1);
      expect(Date.now() - started).toBeLessThan(10000);
    } finally {
      await hostile.close();
    }
  });

  it.each([
    // The shared columns' own codes name them.
    [{ snmpOid: '1.3.6.1.2.1.1.3.0', radiusPassword: 'public' }, null, 'monitors.hostnameRequired'],
    [{ hostname: 'switch.lan' }, 'snmpOid', 'notifications.fieldRequired'],
    [{ hostname: 'switch.lan', snmpOid: 'iso.3.6.1' }, 'snmpOid', 'monitors.snmpOidInvalid'],
    [{ hostname: 'switch.lan', snmpOid: '1.3.6.1.2.1.1.3.0' }, 'radiusPassword', 'notifications.fieldRequired'],
    [{ hostname: 'switch.lan', snmpOid: '1.3.6.1.2.1.1.3.0', snmpVersion: '3' }, 'snmpV3Username', 'notifications.fieldRequired'],
    [
      {
        hostname: 'switch.lan',
        snmpOid: '1.3.6.1.2.1.1.3.0',
        snmpVersion: '3',
        snmpV3Username: 'u',
        snmpV3PrivProtocol: 'aes',
        snmpV3PrivKey: 'priv-passphrase',
      },
      'snmpV3PrivProtocol',
      'monitors.snmpPrivNeedsAuth',
    ],
    [
      { hostname: 'switch.lan', snmpOid: '1.3.6.1.2.1.1.3.0', radiusPassword: 'public', snmpVersion: 'v2' },
      'snmpVersion',
      'notifications.fieldSelect',
    ],
    [{ hostname: 'switch.lan', snmpOid: '1.3.6.1.2.1.1.3.0', radiusPassword: 'public', port: 70_000 }, null, 'monitors.portInvalid'],
  ])('refuses %j, naming the field', async (fields: Record<string, unknown>, field: string | null, code: string) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'bad', type: 'snmp', ...fields })
      .expect(400);
    expect(body).toMatchObject({ success: false, code, ...(field && { field }) });
  });
});
