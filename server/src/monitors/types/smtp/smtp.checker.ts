import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SMTP_SECURITY, smtpPort, type SmtpSecurity } from '@vigil/proto';
import type { AddedCheckTarget, Checker, Endpoint, Observed, PeerCertificate, ProbeResult } from '../../checkers/checker';
import { failedProbe, ProbeFailure } from '../../checkers/failure';
import { peerCertificateOf, refusedCertificate } from '../../checkers/peer-certificate';
import { openSocket, openTargetSocket, TargetSocketChecker, withinTimeout } from '../../checkers/socket';
import { quoted, replyTexts, SmtpReplies, type SmtpReply } from './smtp-replies';

/** How long QUIT may take to leave before the socket is cut (after the result is known). */
const QUIT_GRACE_MS = 1000;

/** A monitor's SMTP settings as its spec validated them. */
interface SmtpSettings {
  security: SmtpSecurity;
  ignoreTls: boolean;
  /** Both set, or neither (the spec's rule). */
  username: string | null;
  password: string | null;
}

/** The connection as it stands: STARTTLS replaces the socket and its reader. */
interface Session {
  socket: Socket;
  replies: SmtpReplies;
  /** The code of the last reply read. */
  lastCode: number | null;
  /** Our EHLO name, taken from the plain socket (a TLS socket over it may not know its address). */
  name: string;
}

interface Holder {
  session?: Session;
  over: boolean;
}

/**
 * SMTP checks over our own small client (no mail is sent): the greeting (220), EHLO (HELO when refused), then per
 * `smtpSecurity` STARTTLS (required: a server not offering it fails) or TLS from the start, the certificate judged
 * as every TLS check judges it; an optional sign-in (PLAIN, else LOGIN) and QUIT. The greeting is the `banner`
 * source and the EHLO extensions (after STARTTLS: the secured ones) `capabilities`. Replies are read with a cap on
 * line length and count (SmtpReplies) and the whole conversation ends within the timeout.
 */
export class SmtpChecker extends TargetSocketChecker implements Checker<'smtp'> {
  readonly type = 'smtp' as const;

  endpoint(target: AddedCheckTarget<'smtp'>): Endpoint | null {
    if (!target.hostname) return null;
    return { host: target.hostname, port: smtpPort(target.port, target.settings.smtpSecurity) };
  }

  async check(target: AddedCheckTarget<'smtp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const observed: Observed = { metrics: {} };
    // `over`: the check has ended (timed out); a connection that opens after that is closed at once.
    const holder: Holder = { over: false };
    try {
      await withinTimeout(this.converse(target, smtpSettings(target.settings), observed, holder), target.timeout * 1000);
      const session = holder.session!;
      const responseTime = Math.round(performance.now() - started);
      quit(session);
      return { ok: true, statusCode: session.lastCode, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      holder.over = true;
      holder.session?.socket.destroy();
      return failedProbe(error, { checkedAt, observed, timeoutSeconds: target.timeout, statusCode: holder.session?.lastCode });
    }
  }

  private async converse(target: AddedCheckTarget<'smtp'>, settings: SmtpSettings, observed: Observed, holder: Holder) {
    const metrics = observed.metrics!;
    const implicit = settings.security === 'secure';
    const opened = await openTargetSocket({
      hostname: target.hostname,
      port: smtpPort(target.port, settings.security),
      guard: this.outbound.guard(target.scope),
      tls: implicit ? { ca: this.ca } : null,
      timeoutMs: target.timeout * 1000,
    });
    if (holder.over) {
      opened.socket.destroy();
      return;
    }
    const session: Session = (holder.session = {
      socket: opened.socket,
      replies: new SmtpReplies(opened.socket),
      lastCode: null,
      name: clientName(opened.socket),
    });
    if (implicit) acceptCertificate(opened.certificate, settings, observed);

    const greeting = await read(session);
    metrics.banner = greeting.lines.join('\n');
    if (greeting.code !== 220) throw refused('The SMTP server refused the session', greeting);
    let extensions = await hello(session);
    metrics.capabilities = extensions.join('\n');

    if (settings.security === 'starttls') {
      if (!extensions.some((line) => /^STARTTLS$/i.test(line))) throw new ProbeFailure('The SMTP server does not offer STARTTLS', 250);
      await command(session, 'STARTTLS', 220, 'The SMTP server refused STARTTLS');
      // Anything sent before the handshake could pose as a secured reply (command injection, CVE-2011-0411).
      if (session.replies.pending) throw new ProbeFailure('The SMTP server sent data before the TLS handshake');
      await this.secure(session, target, settings, observed);
      extensions = await hello(session);
      metrics.capabilities = extensions.join('\n');
    }
    if (settings.username !== null && settings.password !== null) await signIn(session, extensions, settings.username, settings.password);
  }

  /** The STARTTLS handshake on the session's socket; the secured socket and its reader replace the plain ones. */
  private async secure(session: Session, target: AddedCheckTarget<'smtp'>, settings: SmtpSettings, observed: Observed): Promise<void> {
    session.replies.detach();
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const plain = session.socket;
    const secured = await openSocket(
      () =>
        tlsConnect({
          socket: plain,
          // SNI takes names only; an address is matched against the certificate's IP entries.
          servername: isIP(host) ? undefined : host,
          host,
          rejectUnauthorized: false,
          ca: this.ca,
        }),
      'secureConnect',
      target.timeout * 1000,
    );
    session.socket = secured;
    session.replies = new SmtpReplies(secured);
    acceptCertificate(peerCertificateOf(secured), settings, observed);
  }
}

function smtpSettings(settings: Record<string, unknown>): SmtpSettings {
  const security = SMTP_SECURITY.find((value) => value === settings.smtpSecurity) ?? 'starttls';
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    security,
    ignoreTls: settings.ignoreTls === true,
    username: text(settings.smtpUsername),
    password: text(settings.smtpPassword),
  };
}

/** Records the certificate; fails on one a strict check may not accept. */
function acceptCertificate(certificate: PeerCertificate | null, settings: SmtpSettings, observed: Observed): void {
  if (certificate) observed.certificate = certificate;
  const refusal = refusedCertificate(certificate, true, settings.ignoreTls);
  if (refusal) throw new ProbeFailure(refusal);
}

async function read(session: Session): Promise<SmtpReply> {
  const reply = await session.replies.next();
  session.lastCode = reply.code;
  return reply;
}

/** Sends one command line and reads its reply, failing with `what` and the server's words unless it is `expected`. */
async function command(session: Session, line: string, expected: number, what: string): Promise<SmtpReply> {
  session.socket.write(`${line}\r\n`);
  const reply = await read(session);
  if (reply.code !== expected) throw refused(what, reply);
  return reply;
}

/** EHLO's extensions (`SIZE 10240000`, `STARTTLS`); none after a HELO, for a server that refuses EHLO. */
async function hello(session: Session): Promise<string[]> {
  const { name } = session;
  session.socket.write(`EHLO ${name}\r\n`);
  const reply = await read(session);
  if (reply.code === 250) return replyTexts(reply).slice(1);
  if (reply.code < 500) throw refused('The SMTP server refused EHLO', reply);
  await command(session, `HELO ${name}`, 250, 'The SMTP server refused HELO');
  return [];
}

/** Signs in with PLAIN, else LOGIN (RFC 4954), as the EHLO extensions offer; 235 is success. */
async function signIn(session: Session, extensions: string[], username: string, password: string): Promise<void> {
  const offer = extensions.find((line) => /^AUTH[ =]/i.test(line));
  if (!offer) throw new ProbeFailure('The SMTP server does not offer AUTH (sign-in)', 250);
  const mechanisms = offer.slice(5).toUpperCase().split(/\s+/);
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const what = 'SMTP sign-in refused';
  if (mechanisms.includes('PLAIN')) {
    await command(session, `AUTH PLAIN ${base64(`\0${username}\0${password}`)}`, 235, what);
  } else if (mechanisms.includes('LOGIN')) {
    await command(session, 'AUTH LOGIN', 334, what);
    await command(session, base64(username), 334, what);
    await command(session, base64(password), 235, what);
  } else {
    throw new ProbeFailure(`The SMTP server offers no PLAIN or LOGIN sign-in (${quoted(offer)})`, 250);
  }
}

/** Says goodbye politely; the socket is cut after a grace period whatever the server does. */
function quit(session: Session): void {
  session.replies.detach();
  const { socket } = session;
  socket.on('error', () => undefined);
  socket.end('QUIT\r\n');
  setTimeout(() => socket.destroy(), QUIT_GRACE_MS).unref();
}

/** Our EHLO name: the address literal of our end of the connection (RFC 5321 4.1.3), which names no host of ours. */
function clientName(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return isIP(address) === 6 ? `[IPv6:${address}]` : `[${address}]`;
}

const refused = (what: string, reply: SmtpReply) => new ProbeFailure(`${what}: ${quoted(reply.lines.join(' '))}`, reply.code);
