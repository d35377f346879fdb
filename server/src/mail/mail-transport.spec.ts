import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../common/outbound';
import { createSelfSignedCertificate, createTestAuthority } from '../monitors/checkers/fakes/certificates.testing';
import { startSmtpServer, type FakeSmtpOptions, type FakeSmtpServer } from './fake-smtp-server.testing';
import { MailError } from './mail-failure';
import { sendMail, type MailMessage, type MailOptions, type MailServer } from './mail-transport';

const LOGIN = { username: 'vigil@example.com', password: 'correct horse battery staple' };
const OPEN: MailOptions = { guard: AddressDenyList.parse('none'), timeoutMs: 5000 };
const MESSAGE: MailMessage = {
  from: 'Vigil <alerts@example.com>',
  to: ['ops@example.com'],
  subject: '[Vigil] API is down',
  text: 'API is down\nConnection refused',
  html: '<p>API is down</p>',
};

describe('sendMail', () => {
  const servers: FakeSmtpServer[] = [];
  const start = async (options: FakeSmtpOptions) => {
    const server = await startSmtpServer(options);
    servers.push(server);
    return server;
  };
  const serverOf = (fake: FakeSmtpServer, settings: Partial<MailServer>): MailServer => ({
    host: fake.host,
    port: fake.port,
    security: 'starttls',
    ...settings,
  });
  /** The MailError `work` fails with. */
  const failureOf = async (work: Promise<unknown>): Promise<MailError> => {
    const error = await work.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof MailError)) throw new Error(`expected a MailError, got ${String(error)}`);
    return error;
  };

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it.each(['PLAIN', 'LOGIN'] as const)('logs in with AUTH %s after STARTTLS and delivers to every recipient', async (method) => {
    const fake = await start({ mode: 'starttls', login: LOGIN, authMethods: [method] });
    const message = {
      ...MESSAGE,
      cc: ['lead@example.com'],
      bcc: ['audit@example.com'],
      deliveryId: '5f0c6c1e-8f0a-4d43-9a0e-0d7c1c1b2a11',
    };

    const receipt = await sendMail(serverOf(fake, { ...LOGIN, tlsInsecure: true }), message, OPEN);

    expect(receipt).toMatchObject({ code: 250, detail: 'Accepted for 3 recipients' });
    const { envelope, user, secure, mail } = await fake.next();
    expect(user).toBe(LOGIN.username);
    expect(secure).toBe(true);
    expect(envelope).toEqual({ from: 'alerts@example.com', to: ['ops@example.com', 'lead@example.com', 'audit@example.com'] });
    expect(mail.subject).toBe('[Vigil] API is down');
    expect(mail.text?.trim()).toBe('API is down\nConnection refused');
    expect(mail.html).toContain('<p>API is down</p>');
    expect(mail.from?.text).toBe('"Vigil" <alerts@example.com>');
    expect(mail.headers.get('cc')).toMatchObject({ text: 'lead@example.com' });
    // Bcc recipients are in the envelope only.
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.get('x-vigil-delivery')).toBe(message.deliveryId);
    expect(mail.messageId).toBe(`<${message.deliveryId}@example.com>`);
  });

  it('verifies the certificate by default and names what is wrong with it', async () => {
    const fake = await start({ mode: 'starttls', login: LOGIN });

    const error = await failureOf(sendMail(serverOf(fake, LOGIN), MESSAGE, OPEN));

    expect(error.message).toBe('TLS error: self-signed certificate');
    expect(error.retryable).toBe(true);
    expect(fake.received).toHaveLength(0);
  });

  it('sends with a trusted certificate for the host name, and refuses one for another name', async () => {
    const authority = createTestAuthority();
    const trusted = { ...OPEN, ca: [authority.cert] };
    const fake = await start({ mode: 'starttls', certificate: authority.issue({ altNames: ['localhost'] }) });

    await sendMail(serverOf(fake, { host: 'localhost' }), MESSAGE, trusted);
    const mismatch = await failureOf(sendMail(serverOf(fake, { host: '127.0.0.1' }), MESSAGE, trusted));

    expect(fake.received).toHaveLength(1);
    expect(mismatch.message).toBe('TLS error: certificate does not match the host name');
  });

  it('sends in plain text without logging in when security is none', async () => {
    const fake = await start({ mode: 'plain' });

    await sendMail(serverOf(fake, { security: 'none' }), MESSAGE, OPEN);

    const { user, secure, envelope } = await fake.next();
    expect({ user, secure }).toEqual({ user: null, secure: false });
    expect(envelope.to).toEqual(['ops@example.com']);
  });

  it('speaks TLS from the first byte when security is tls', async () => {
    const fake = await start({ mode: 'tls', login: LOGIN });

    await sendMail(serverOf(fake, { security: 'tls', ...LOGIN, tlsInsecure: true }), MESSAGE, OPEN);

    expect(await fake.next()).toMatchObject({ secure: true, user: LOGIN.username });
  });

  it('refuses to send in plain text when STARTTLS is required but the server does not offer it', async () => {
    const fake = await start({ mode: 'plain' });

    const error = await failureOf(sendMail(serverOf(fake, { security: 'starttls' }), MESSAGE, OPEN));

    expect(error.message).toBe('The server does not offer STARTTLS; refusing to send in plain text');
    expect(error.retryable).toBe(false);
    expect(fake.received).toHaveLength(0);
  });

  it('fails for good on a wrong password, without the password in the text', async () => {
    const fake = await start({ mode: 'starttls', login: LOGIN });
    const wrong = { username: LOGIN.username, password: 'Tr0ub4dor&3-not-it' };

    const error = await failureOf(sendMail(serverOf(fake, { ...wrong, tlsInsecure: true }), MESSAGE, OPEN));

    expect(error.message).toBe('Authentication failed (535 5.7.8 Authentication credentials invalid)');
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(wrong.password);
    expect(fake.received).toHaveLength(0);
  });

  it('fails for good when the server refuses every recipient', async () => {
    const fake = await start({ mode: 'plain', refuse: ['ops@example.com'] });

    const error = await failureOf(sendMail(serverOf(fake, { security: 'none' }), MESSAGE, OPEN));

    expect(error.message).toBe('Recipient refused: 550 5.1.1 <ops@example.com>: Recipient address rejected: User unknown');
    expect(error.retryable).toBe(false);
    expect(error.replyCode).toBe(550);
  });

  it('delivers to the recipients the server accepts and names the ones it refused', async () => {
    const fake = await start({ mode: 'plain', refuse: ['gone@example.com'] });

    const receipt = await sendMail(serverOf(fake, { security: 'none' }), { ...MESSAGE, to: ['ops@example.com', 'gone@example.com'] }, OPEN);

    expect(receipt.detail).toBe(
      'Accepted for 1 recipient; refused gone@example.com (550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown)',
    );
    expect((await fake.next()).envelope.to).toEqual(['ops@example.com']);
  });

  it('reports a refused connection as worth retrying', async () => {
    const fake = await start({ mode: 'plain' });
    await fake.close();
    servers.splice(servers.indexOf(fake), 1);

    const error = await failureOf(sendMail(serverOf(fake, { security: 'none' }), MESSAGE, OPEN));

    expect(error).toMatchObject({ message: 'Connection refused', retryable: true });
  });

  it('gives up on a server that never greets within the time limit', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const error = await failureOf(sendMail({ host: '127.0.0.1', port, security: 'none' }, MESSAGE, { ...OPEN, timeoutMs: 300 }));

      expect(error).toMatchObject({ message: 'Timed out after 0.3 s', retryable: true });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it.each([
    ['an address', '127.0.0.1'],
    ['a name', 'localhost'],
  ])('refuses %s the outbound policy denies before connecting', async (_kind, host) => {
    const fake = await start({ mode: 'plain' });
    const denied = { ...OPEN, guard: AddressDenyList.parse('127.0.0.0/8, ::1') };

    const error = await failureOf(sendMail(serverOf(fake, { host, security: 'none' }), MESSAGE, denied));

    expect(error.message).toMatch(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/);
    expect(error.retryable).toBe(false);
    expect(fake.connections).toBe(0);
  });

  it('refuses an implicit TLS server with an untrusted certificate before logging in', async () => {
    const fake = await start({ mode: 'tls', login: LOGIN, certificate: createSelfSignedCertificate({ altNames: ['localhost'] }) });

    const error = await failureOf(sendMail(serverOf(fake, { host: 'localhost', security: 'tls', ...LOGIN }), MESSAGE, OPEN));

    expect(error.message).toBe('TLS error: self-signed certificate');
    expect(fake.received).toHaveLength(0);
  });
});
