import { validateChannelConfig, type ChannelConfigs } from '@vigil/proto';
import { AddressDenyList } from '../../common/outbound';
import { startSmtpServer, type FakeSmtpServer } from '../../mail/fake-smtp-server.testing';
import { aMessage, FIXED_NOW, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { DeliveryError, type SendContext } from './provider';
import { smtpProvider as sut } from './smtp.provider';

const validate = validatorOf('smtp');
const LOGIN = { username: 'vigil@example.com', password: 's3cret-Passw0rd!' };
const CONTEXT: SendContext = { apiUrl: '', timeoutMs: 5000, now: () => FIXED_NOW, guard: AddressDenyList.parse('none') };

describe('smtpProvider config (CHANNEL_SPECS)', () => {
  it('fills the defaults and reads the address lists', () => {
    expect(
      validate({
        host: ' smtp.example.com ',
        from: 'Vigil <alerts@example.com>',
        to: 'a@example.com, b@example.org',
        bcc: 'c@example.net',
      }),
    ).toEqual({
      ok: true,
      config: {
        host: 'smtp.example.com',
        port: 587,
        security: 'starttls',
        from: 'Vigil <alerts@example.com>',
        to: ['a@example.com', 'b@example.org'],
        bcc: ['c@example.net'],
        tlsInsecure: false,
      },
    });
  });

  it('refuses a password without a username', () => {
    expect(validate({ host: 'smtp.example.com', from: 'alerts@example.com', to: 'a@example.com', password: 'x' })).toEqual({
      ok: false,
      code: 'notifications.fieldRequired',
    });
  });
});

describe('smtpProvider.destination', () => {
  it.each([
    [{ host: 'SMTP.Example.com', port: 465 }, 'smtp.example.com:465'],
    [{ host: 'smtp.example.com.' }, 'smtp.example.com:587'],
    [{ host: ' smtp.example.com', port: '2525' }, 'smtp.example.com:2525'],
    [{ host: '[::1]', port: 25 }, '[::1]:25'],
    [{ port: 25 }, null],
  ])('of %j is %s', (config, destination) => {
    expect(sut.destination!(config)).toBe(destination);
  });
});

describe('smtpProvider.send', () => {
  let fake: FakeSmtpServer;
  const configFor = (overrides: Record<string, unknown> = {}): ChannelConfigs['smtp'] => {
    const valid = validateChannelConfig('smtp', {
      host: fake.host,
      port: fake.port,
      from: 'Vigil <alerts@example.com>',
      to: 'ops@example.com',
      ...overrides,
    });
    if (!valid.ok) throw new Error(`invalid config: ${valid.code}`);
    return valid.config;
  };

  beforeEach(async () => {
    fake = await startSmtpServer({ mode: 'starttls', login: LOGIN });
  });

  afterEach(() => fake.close());

  it('sends the message as text and as an HTML card in the severity colour, with a link to the page', async () => {
    const message = aMessage({ text: 'Shop API is down.\nReason: <timeout> & more', link: 'https://vigil.example.com/monitors/7' });
    const config = configFor({ ...LOGIN, tlsInsecure: true, cc: 'lead@example.com', bcc: 'audit@example.com' });

    const answer = await sut.send(message, config, { ...CONTEXT, deliveryId: '0b7e5a4c-2f44-4c59-a2c1-7b1d0f3f6a90' });

    expect(answer).toEqual({ status: 250, detail: 'Accepted for 3 recipients' });
    const { envelope, user, secure, mail } = await fake.next();
    expect({ user, secure }).toEqual({ user: LOGIN.username, secure: true });
    expect(envelope.to).toEqual(['ops@example.com', 'lead@example.com', 'audit@example.com']);
    expect(mail.subject).toBe('[DOWN] Shop API');
    expect(mail.text?.trim()).toBe('Shop API is down.\nReason: <timeout> & more\n\nhttps://vigil.example.com/monitors/7');
    expect(mail.html).toContain('border-top:4px solid #e03131');
    expect(mail.html).toContain('Reason: &lt;timeout&gt; &amp; more');
    expect(mail.html).toContain('<a href="https://vigil.example.com/monitors/7"');
    expect(mail.headers.get('x-vigil-delivery')).toBe('0b7e5a4c-2f44-4c59-a2c1-7b1d0f3f6a90');
  });

  it('colours a recovery green and leaves the link out when there is none', async () => {
    await sut.send(aMessage({ severity: 'recovery', subject: '[UP] Shop API' }), configFor({ ...LOGIN, tlsInsecure: true }), CONTEXT);

    const { mail } = await fake.next();
    expect(mail.html).toContain('border-top:4px solid #2f9e44');
    expect(mail.html).not.toContain('<a ');
    expect(mail.text?.trim()).toBe('Shop API is down.\nReason: Connection refused');
  });

  it('fails for good on a wrong password, naming the reply but not the password', async () => {
    const error = await rejectionOf(
      sut.send(aMessage(), configFor({ username: LOGIN.username, password: 'not-the-Passw0rd', tlsInsecure: true }), CONTEXT),
    );

    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.message).toBe('Authentication failed (535 5.7.8 Authentication credentials invalid)');
    expect((error as DeliveryError).retryable).toBe(false);
  });

  it('fails with a readable certificate error while certificates are verified', async () => {
    const error = await rejectionOf(sut.send(aMessage(), configFor(LOGIN), CONTEXT));

    expect(error).toMatchObject({ message: 'TLS error: self-signed certificate', retryable: true });
    expect(fake.received).toHaveLength(0);
  });

  it("connects through the context's outbound guard", async () => {
    const denied = { ...CONTEXT, guard: AddressDenyList.parse('127.0.0.0/8') };

    const error = await rejectionOf(sut.send(aMessage(), configFor({ ...LOGIN, tlsInsecure: true }), denied));

    expect(error).toMatchObject({ message: 'Address 127.0.0.1 is refused by OUTBOUND_DENY', retryable: false });
    expect(fake.connections).toBe(0);
  });
});
