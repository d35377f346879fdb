import { settingsFields, typeSpec, validateFields } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { RadiusChecker } from './radius.checker';
import { startRadiusServer, type FakeRadiusServer } from './radius-server.testing';

const SECRET = 'testing123';
const USER = { name: 'alice', password: 'correct horse' };

/** A target as the server builds it: the settings through the spec (defaults filled). */
function radiusTarget(port: number, settings: Record<string, unknown> = {}, timeout = 2): AddedCheckTarget<'radius'> {
  const spec = typeSpec('radius');
  const body = { radiusUsername: USER.name, radiusPassword: USER.password, radiusSecret: SECRET, ...settings };
  const checked = validateFields({ fields: settingsFields(spec), check: spec.check }, body);
  if (!checked.ok) throw new Error(`invalid settings: ${checked.field} ${checked.code}`);
  return { id: 1, scope: 'admin', type: 'radius', hostname: '127.0.0.1', port, url: '', timeout, assertions: [], settings: checked.config };
}

describe('RadiusChecker', () => {
  const sut = new RadiusChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let server: FakeRadiusServer;

  beforeAll(async () => {
    server = await startRadiusServer(SECRET, USER);
  });
  beforeEach(() => {
    server.mode = 'normal';
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it('is up on Access-Accept, having sent the user, the password and the station ids', async () => {
    const result = await sut.check(
      radiusTarget(server.port, { radiusCalledStationId: 'AP-1', radiusCallingStationId: '00-11-22-33-44-55' }),
    );
    expect(result).toMatchObject({ ok: true, error: null });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(server.requests).toEqual([
      expect.objectContaining({
        'User-Name': USER.name,
        'User-Password': USER.password,
        'NAS-Identifier': 'vigil',
        'Called-Station-Id': 'AP-1',
        'Calling-Station-Id': '00-11-22-33-44-55',
      }),
    ]);
  });

  it('is down on Access-Reject, with the server’s Reply-Message', async () => {
    const result = await sut.check(radiusTarget(server.port, { radiusPassword: 'wrong' }));
    expect(result).toMatchObject({ ok: false, error: 'Access-Reject: Unknown user or wrong password' });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
  });

  it('is up on Access-Challenge (the password was taken, a second factor is asked)', async () => {
    server.mode = 'challenge';
    expect(await sut.check(radiusTarget(server.port))).toMatchObject({ ok: true, error: null });
  });

  it('times out within the monitor timeout when the server drops a request signed with another secret', async () => {
    const started = performance.now();
    const result = await sut.check(radiusTarget(server.port, { radiusSecret: 'not-the-secret' }, 1));
    expect(result).toMatchObject({ ok: false, responseTime: null });
    expect(result.error).toMatch(/^Timeout after 1 s: no RADIUS answer/);
    expect(server.requests).toEqual([]);
    expect(performance.now() - started).toBeLessThan(6900);
  });

  it('times out when the server stays silent', async () => {
    server.mode = 'silent';
    const result = await sut.check(radiusTarget(server.port, {}, 1));
    expect(result.error).toMatch(/^Timeout after 1 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an answer that does not verify under the shared secret', async () => {
    server.mode = 'forged';
    const result = await sut.check(radiusTarget(server.port));
    expect(result).toMatchObject({ ok: false, error: "The RADIUS answer does not verify: the shared secret differs from the server's" });
  });

  it('fails at once, named, on an answer that is no RADIUS packet', async () => {
    server.mode = 'garbage';
    const started = performance.now();
    const result = await sut.check(radiusTarget(server.port, {}, 5));
    expect(result.error).toMatch(/^Malformed RADIUS answer: /);
    expect(performance.now() - started).toBeLessThan(7000);
  });

  it('fails at once when nothing listens on the port', async () => {
    const closed = await startRadiusServer(SECRET, USER);
    await closed.close();
    const result = await sut.check(radiusTarget(closed.port, {}, 5));
    expect(result).toMatchObject({ ok: false, error: 'Connection refused' });
  });

  it('refuses a denied address before sending anything', async () => {
    const denied = new RadiusChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    const result = await denied.check(radiusTarget(server.port));
    expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY' });
    expect(server.requests).toEqual([]);
  });

  it('connects to the hostname and port, 1812 by default', () => {
    expect(sut.endpoint({ ...radiusTarget(1), hostname: 'radius.lan', port: null })).toEqual({ host: 'radius.lan', port: 1812 });
  });
});
