import { settingsFields, typeSpec, validateFields } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { SnmpChecker } from './snmp.checker';
import { SNMP_OIDS, SNMP_USER, startSnmpAgent, startUdpServer, type FakeSnmpAgent } from './snmp-agent.testing';

/** A target as the server builds it: the settings through the spec (defaults filled). */
function snmpTarget(port: number, settings: Record<string, unknown>, timeout = 2): AddedCheckTarget<'snmp'> {
  const spec = typeSpec('snmp');
  const checked = validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
  if (!checked.ok) throw new Error(`invalid settings: ${checked.field} ${checked.code}`);
  return { id: 1, scope: 'admin', type: 'snmp', hostname: '127.0.0.1', port, url: '', timeout, assertions: [], settings: checked.config };
}

const v2c = (snmpOid: string, community = 'public') => ({ snmpVersion: '2c', snmpOid, radiusPassword: community });
const v3 = (snmpOid: string, user: Partial<Record<string, string>> = {}) => ({
  snmpVersion: '3',
  snmpOid,
  snmpV3Username: SNMP_USER.name,
  snmpV3AuthProtocol: SNMP_USER.authProtocol,
  snmpV3AuthKey: SNMP_USER.authKey,
  snmpV3PrivProtocol: SNMP_USER.privProtocol,
  snmpV3PrivKey: SNMP_USER.privKey,
  ...user,
});

describe('SnmpChecker', () => {
  const sut = new SnmpChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let agent: FakeSnmpAgent;

  beforeAll(async () => {
    agent = await startSnmpAgent('public');
  });
  afterAll(() => agent.close());

  it.each([
    ['text', v2c(SNMP_OIDS.text), 'Vigil test switch'],
    ['a number as its decimal text', v2c(SNMP_OIDS.number), '42'],
    ['a Counter64 beyond 32 bits', v2c(SNMP_OIDS.counter64), '4294967296'],
    ['bytes that are not text as hex', v2c(SNMP_OIDS.bytes), '00:1A:2B:FF'],
    ['SNMPv1', { ...v2c(SNMP_OIDS.number), snmpVersion: '1' }, '42'],
    ['SNMPv3 authPriv (SHA, AES)', v3(SNMP_OIDS.text), 'Vigil test switch'],
  ])('observes the value of a GET: %s', async (_case, settings, value) => {
    const result = await sut.check(snmpTarget(agent.port, settings));
    expect(result).toMatchObject({ ok: true, error: null, observed: { value } });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
  });

  it('sees the value the agent holds now', async () => {
    agent.setNumber(7);
    expect((await sut.check(snmpTarget(agent.port, v2c(SNMP_OIDS.number)))).observed.value).toBe('7');
    agent.setNumber(42);
  });

  it.each([
    ['an object the agent does not have', SNMP_OIDS.missing, `noSuchObject: the agent has no object ${SNMP_OIDS.missing}`],
    ['an instance the agent does not have', SNMP_OIDS.noInstance, `noSuchInstance: the agent has no instance ${SNMP_OIDS.noInstance}`],
  ])('fails, named, for %s', async (_case, oid, error) => {
    const result = await sut.check(snmpTarget(agent.port, v2c(oid)));
    expect(result.ok).toBe(false);
    expect(result.error).toContain(error);
  });

  it('times out within the monitor timeout on a wrong community (the agent stays silent)', async () => {
    const started = performance.now();
    const result = await sut.check(snmpTarget(agent.port, v2c(SNMP_OIDS.text, 'wrong'), 1));
    expect(result).toMatchObject({ ok: false, responseTime: null, observed: {} });
    expect(result.error).toMatch(/^Timeout after 1 s: no SNMP answer/);
    expect(performance.now() - started).toBeLessThan(6900);
  });

  it('names an unknown v3 user, which the agent reports', async () => {
    const result = await sut.check(snmpTarget(agent.port, v3(SNMP_OIDS.text, { snmpV3Username: 'stranger' })));
    expect(result).toMatchObject({ ok: false, error: 'SNMP answer refused: Unknown User Name' });
  });

  it('times out on a wrong v3 key, discovery included, within the monitor timeout', async () => {
    const started = performance.now();
    const result = await sut.check(snmpTarget(agent.port, v3(SNMP_OIDS.text, { snmpV3AuthKey: 'not-the-key' }), 1));
    expect(result.error).toMatch(/^Timeout after 1 s/);
    expect(performance.now() - started).toBeLessThan(6900);
  });

  it('fails at once, named, on an answer that is not SNMP', async () => {
    const hostile = await startUdpServer(() => [Buffer.alloc(60_000, 0x30)]);
    try {
      const started = performance.now();
      const result = await sut.check(snmpTarget(hostile.port, v2c(SNMP_OIDS.text), 5));
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^Unreadable SNMP answer: /);
      expect(performance.now() - started).toBeLessThan(7000);
    } finally {
      await hostile.close();
    }
  });

  it('refuses a denied address before sending anything', async () => {
    const denied = new SnmpChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    const result = await denied.check(snmpTarget(agent.port, v2c(SNMP_OIDS.text)));
    expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY' });
  });

  it('connects to the hostname and port, 161 by default', () => {
    expect(sut.endpoint({ ...snmpTarget(1, v2c(SNMP_OIDS.text)), hostname: 'switch.lan', port: null })).toEqual({
      host: 'switch.lan',
      port: 161,
    });
  });
});
