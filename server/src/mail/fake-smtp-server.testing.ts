import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createSelfSignedCertificate, type TestCertificate } from '../monitors/checkers/fakes/certificates.testing';

/** An email the fake took: the SMTP envelope, who logged in, whether the session was encrypted, and the parsed message. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The user that logged in; null without AUTH. */
  user: string | null;
  /** Whether the message travelled over TLS (implicit or after STARTTLS). */
  secure: boolean;
  mail: ParsedMail;
}

export interface FakeSmtpOptions {
  /** `tls`: implicit TLS; `starttls`: plain, STARTTLS offered; `plain`: no TLS at all (STARTTLS neither offered nor accepted). */
  mode: 'tls' | 'starttls' | 'plain';
  /** Set: AUTH PLAIN and LOGIN are offered (over TLS only, as real servers do) and required. Unset: no AUTH. */
  login?: { username: string; password: string };
  /** The AUTH methods offered; default PLAIN and LOGIN. */
  authMethods?: Array<'PLAIN' | 'LOGIN'>;
  /** Recipients answered with `550 5.1.1 <address>: Recipient address rejected: User unknown`. */
  refuse?: string[];
  /** Default: a new self-signed certificate for `localhost` and `127.0.0.1`. */
  certificate?: TestCertificate;
}

/** A loopback SMTP server (smtp-server) that keeps what it received, for specs of the mail transport and its channel. */
export interface FakeSmtpServer {
  host: string;
  port: number;
  certificate: TestCertificate;
  received: ReceivedMail[];
  /** Connections accepted so far. */
  connections: number;
  /** Resolves with the next email (or one already received that nobody waited for) within `timeoutMs`. */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(options: FakeSmtpOptions): Promise<FakeSmtpServer> {
  const certificate = options.certificate ?? createSelfSignedCertificate();
  const received: ReceivedMail[] = [];
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  let taken = 0;
  const refuse = new Set((options.refuse ?? []).map((address) => address.toLowerCase()));
  const fake: FakeSmtpServer = {
    host: '127.0.0.1',
    port: 0,
    certificate,
    received,
    connections: 0,
    next: (timeoutMs = 5000) =>
      new Promise<ReceivedMail>((resolve, reject) => {
        if (taken < received.length) return resolve(received[taken++]);
        const waiter = (mail: ReceivedMail) => {
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`No email arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const settings: SMTPServerOptions = {
    secure: options.mode === 'tls',
    key: certificate.key,
    cert: certificate.cert,
    disabledCommands: [...(options.mode === 'plain' ? ['STARTTLS'] : []), ...(options.login ? [] : ['AUTH'])],
    hideSTARTTLS: options.mode === 'plain',
    authMethods: options.authMethods ?? ['PLAIN', 'LOGIN'],
    authOptional: !options.login,
    logger: false,
    onConnect(_session, callback) {
      fake.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      const login = options.login;
      if (login && auth.username === login.username && auth.password === login.password) return callback(null, { user: auth.username });
      const error = Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 });
      callback(error);
    },
    onRcptTo(address, _session, callback) {
      if (!refuse.has(address.address.toLowerCase())) return callback();
      const error = Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const one: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            user: typeof session.user === 'string' ? session.user : null,
            secure: session.secure,
            mail,
          };
          received.push(one);
          const waiter = waiting.shift();
          if (waiter) {
            taken += 1;
            waiter(one);
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  };
  const server = new SMTPServer(settings);
  // A client refusing the certificate resets the handshake: the expected outcome of some specs.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.server.address() as AddressInfo).port;
  return fake;
}
