import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { createSelfSignedCertificate, createTestAuthority, daysFromNow } from '../../checkers/fakes/certificates.testing';
import { REPLY_LINE_MAX, REPLY_LINES_MAX } from './smtp-replies';
import { SmtpChecker } from './smtp.checker';
import {
  endlessBanner,
  endlessLine,
  startRawServer,
  startSmtpServer,
  type FakeRawServer,
  type FakeSmtpServer,
} from './smtp-server.testing';

const smtpTarget = (port: number, settings: Record<string, unknown> = {}, fields: Partial<AddedCheckTarget<'smtp'>> = {}) =>
  ({
    id: 1,
    type: 'smtp',
    scope: 'admin',
    hostname: 'localhost',
    port,
    url: '',
    timeout: 5,
    assertions: [],
    settings: { smtpSecurity: 'starttls', ignoreTls: false, ...settings },
    ...fields,
  }) as AddedCheckTarget<'smtp'>;

describe('SmtpChecker', () => {
  const authority = createTestAuthority();
  const sut = new SmtpChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') }, { ca: [authority.cert] });
  const servers: { close(): Promise<void> }[] = [];
  let starttls: FakeSmtpServer;
  let smtps: FakeSmtpServer;

  const started = <T extends { close(): Promise<void> }>(server: T): T => (servers.push(server), server);

  beforeAll(async () => {
    starttls = started(await startSmtpServer({ certificate: authority.issue({ validTo: daysFromNow(30) }) }));
    smtps = started(await startSmtpServer({ certificate: authority.issue(), secure: true }));
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('upgrades with STARTTLS, records the certificate and reports the banner and the secured capabilities', async () => {
    const result = await sut.check(smtpTarget(starttls.port));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: 250 });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.observed.metrics?.banner).toBe('220 mx.vigil.test ESMTP Vigil fake');
    // The secured session's extensions: STARTTLS (offered in plaintext) is gone.
    expect(result.observed.metrics?.capabilities).toBe('PIPELINING\n8BITMIME\nSMTPUTF8\nAUTH PLAIN LOGIN');
    expect(result.observed.certificate).toMatchObject({ subject: 'CN=localhost, O=Vigil Tests', authorizationError: null });
  });

  it('speaks TLS from the start for smtpSecurity "secure" (SMTPS)', async () => {
    const result = await sut.check(smtpTarget(smtps.port, { smtpSecurity: 'secure' }));
    expect(result).toMatchObject({ ok: true, error: null });
    expect(result.observed.certificate?.issuer).toBe('CN=Vigil Test CA, O=Vigil Tests');
  });

  it('stays in plaintext for "nostarttls" even when STARTTLS is offered, recording no certificate', async () => {
    const result = await sut.check(smtpTarget(starttls.port, { smtpSecurity: 'nostarttls' }));
    expect(result).toMatchObject({ ok: true, error: null });
    expect(result.observed.metrics?.capabilities).toMatch(/^STARTTLS$/m);
    expect(result.observed.certificate).toBeUndefined();
  });

  it.each(['PLAIN', 'LOGIN'])('signs in with %s when the server offers only it', async (method) => {
    const server = started(await startSmtpServer({ certificate: authority.issue(), authMethods: [method] }));
    const result = await sut.check(smtpTarget(server.port, { smtpUsername: 'user', smtpPassword: 'secret' }));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: 235 });
    expect(server.signIns).toEqual([method]);
  });

  it('fails with the server words when the sign-in is refused, and recovers with the right password', async () => {
    starttls.setPassword('changed');
    const refused = await sut.check(smtpTarget(starttls.port, { smtpUsername: 'user', smtpPassword: 'secret' }));
    expect(refused).toMatchObject({ ok: false, statusCode: 535, error: 'SMTP sign-in refused: 535 Invalid username or password' });
    starttls.setPassword('secret');
    expect(await sut.check(smtpTarget(starttls.port, { smtpUsername: 'user', smtpPassword: 'secret' }))).toMatchObject({ ok: true });
  });

  it('fails when STARTTLS is required but not offered', async () => {
    const server = started(await startSmtpServer({ certificate: authority.issue(), hideStartTls: true }));
    expect(await sut.check(smtpTarget(server.port))).toMatchObject({ ok: false, error: 'The SMTP server does not offer STARTTLS' });
  });

  it('refuses an untrusted certificate after STARTTLS unless TLS errors are ignored, recording it either way', async () => {
    const server = started(await startSmtpServer({ certificate: createSelfSignedCertificate() }));
    const strict = await sut.check(smtpTarget(server.port));
    expect(strict).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    expect(strict.observed.certificate?.authorizationError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    const lenient = await sut.check(smtpTarget(server.port, { ignoreTls: true }));
    expect(lenient).toMatchObject({ ok: true, error: null });
    expect(lenient.observed.certificate).toBeDefined();
  });

  it('refuses an expired certificate on SMTPS', async () => {
    const server = started(
      await startSmtpServer({ certificate: authority.issue({ validFrom: daysFromNow(-30), validTo: daysFromNow(-1) }), secure: true }),
    );
    expect(await sut.check(smtpTarget(server.port, { smtpSecurity: 'secure' }))).toMatchObject({
      ok: false,
      error: 'TLS error: certificate has expired',
    });
  });

  describe('against servers that misbehave', () => {
    const raw = async (greet: Parameters<typeof startRawServer>[0]): Promise<FakeRawServer> => started(await startRawServer(greet));

    it.each([
      ['an endless multi-line banner', endlessBanner, `The SMTP reply is longer than ${REPLY_LINES_MAX} lines`],
      ['a banner line that never ends', endlessLine, `The SMTP server sent a line longer than ${REPLY_LINE_MAX} bytes`],
      [
        'a refusal (554)',
        (socket) => socket.write('554 5.3.2 busy, try later\r\n'),
        'The SMTP server refused the session: 554 5.3.2 busy, try later',
      ],
      ['something other than SMTP', (socket) => socket.write('SSH-2.0-OpenSSH_9.6\r\n'), 'Not an SMTP reply: "SSH-2.0-OpenSSH_9.6"'],
      ['a close before greeting', (socket) => socket.end(), 'The SMTP server closed the connection'],
    ] as [string, (socket: import('node:net').Socket) => void, string][])('fails with a named error on %s', async (_case, greet, error) => {
      const server = await raw(greet);
      const before = performance.now();
      expect(await sut.check(smtpTarget(server.port, { smtpSecurity: 'nostarttls' }))).toMatchObject({ ok: false, error });
      expect(performance.now() - before).toBeLessThan(7000);
    });

    it('times out on a server that never greets', async () => {
      const server = await raw(() => undefined);
      expect(await sut.check(smtpTarget(server.port, {}, { timeout: 1 }))).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
    });

    it('falls back to HELO for a server that refuses EHLO, with no capabilities', async () => {
      const server = await raw((socket) => {
        socket.write('220 old.mx SMTP\r\n');
        socket.on('data', (data: Buffer) => {
          const line = data.toString();
          if (line.startsWith('EHLO')) socket.write('502 5.5.1 unrecognised command\r\n');
          if (line.startsWith('HELO [127.0.0.1]')) socket.write('250 old.mx\r\n');
        });
      });
      const result = await sut.check(smtpTarget(server.port, { smtpSecurity: 'nostarttls' }));
      expect(result).toMatchObject({ ok: true, statusCode: 250, observed: { metrics: { banner: '220 old.mx SMTP', capabilities: '' } } });
    });

    it('refuses a STARTTLS answer followed by injected plaintext', async () => {
      const server = await raw((socket) => {
        socket.write('220 mx ESMTP\r\n');
        socket.on('data', (data: Buffer) => {
          const line = data.toString();
          if (line.startsWith('EHLO')) socket.write('250-mx\r\n250 STARTTLS\r\n');
          if (line.startsWith('STARTTLS')) socket.write('220 go ahead\r\n250 injected\r\n');
        });
      });
      expect(await sut.check(smtpTarget(server.port))).toMatchObject({
        ok: false,
        error: 'The SMTP server sent data before the TLS handshake',
      });
    });
  });

  it('is refused by the outbound policy before connecting', async () => {
    const result = await sut.check(smtpTarget(starttls.port, {}, { hostname: '127.0.0.2' }));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/OUTBOUND_DENY/);
  });

  it.each([
    [{ smtpSecurity: 'starttls' }, null, 25],
    [{ smtpSecurity: 'nostarttls' }, null, 25],
    [{ smtpSecurity: 'secure' }, null, 465],
    [{ smtpSecurity: 'secure' }, 2525, 2525],
  ])('connects first to the port %j with port %s implies (%s)', (settings, port, expected) => {
    expect(sut.endpoint(smtpTarget(0, settings, { port }))).toEqual({ host: 'localhost', port: expected });
  });
});
