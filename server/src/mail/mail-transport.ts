import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { SMTPTransportGetSocket, SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';
import type { AddressGuard } from '../common/outbound';
import { openTargetSocket } from '../monitors/checkers/socket';
import { MailError, mailFailure, SecretScrubber } from './mail-failure';

/**
 * How the connection to the mail server is protected:
 * - `tls`: TLS from the first byte (implicit TLS, usually port 465);
 * - `starttls`: plain connect, then STARTTLS before anything else; a server that does not offer it fails the send,
 *   so nothing (neither the password nor the message) ever goes out in plain text;
 * - `none`: plain text throughout, never upgraded, credentials included: for a relay on a trusted network only.
 */
export type MailSecurity = 'none' | 'starttls' | 'tls';

/** The SMTP server one email goes through. */
export interface MailServer {
  /** A name or an IP address (brackets allowed). */
  host: string;
  port: number;
  security: MailSecurity;
  /** Both set: the client logs in (AUTH PLAIN or LOGIN, as the server offers), and fails when it cannot. */
  username?: string;
  password?: string;
  /** Accept any certificate (self-signed, expired, another name's). Default false: the certificate is verified. */
  tlsInsecure?: boolean;
}

export interface MailMessage {
  /** `alerts@example.com` or `Vigil <alerts@example.com>`. */
  from: string;
  to: readonly string[];
  cc?: readonly string[];
  bcc?: readonly string[];
  subject: string;
  text: string;
  html?: string;
  /**
   * The delivery's idempotency key (a UUID), the same on every attempt: sent as `X-Vigil-Delivery` and as the
   * Message-ID's local part, so a receiver (or a person) can recognise a retry of an email already received.
   */
  deliveryId?: string;
  /** Further headers (a subscription's `List-Unsubscribe`); the delivery header is always Vigil's own. */
  headers?: Readonly<Record<string, string>>;
}

export interface MailOptions {
  /** Judges the addresses the host resolves to before connecting (the outbound policy). */
  guard: AddressGuard;
  /** The whole send, connect to the server's last answer. */
  timeoutMs: number;
  /** Authorities to trust besides Node's (specs trust their own test authority this way). */
  ca?: string[];
}

/** What the server answered for an email it took. */
export interface MailReceipt {
  /** The reply code of the final answer (250). */
  code: number;
  /** Who it accepted and, when it took the email for some recipients only, whom it refused and why. */
  detail: string;
  messageId: string;
}

export const DELIVERY_HEADER = 'X-Vigil-Delivery';

/**
 * Sends one email through `server`. The socket is opened by Vigil (through the outbound guard, to exactly the address
 * judged) and handed to nodemailer, which speaks SMTP over it and does the TLS handshake with the host's name as SNI
 * and for the certificate check. Resolves with the server's receipt or throws MailError: a short text without the
 * password, and whether trying again later may succeed.
 */
export async function sendMail(server: MailServer, message: MailMessage, options: MailOptions): Promise<MailReceipt> {
  const host = server.host.replace(/^\[|\]$/g, '');
  const scrubber = new SecretScrubber(server.username, server.password);
  const getSocket: SMTPTransportGetSocket = (_options, callback) => {
    openTargetSocket({ hostname: host, port: server.port, guard: options.guard, tls: null, timeoutMs: options.timeoutMs }).then(
      ({ socket }) => callback(null, { connection: socket }),
      (error: unknown) => callback(error as Error),
    );
  };
  const credentials = server.username && server.password ? { user: server.username, pass: server.password } : undefined;
  const transport: SMTPTransportOptions = {
    host,
    port: server.port,
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    getSocket,
    auth: credentials,
    // A server that does not advertise AUTH fails the send instead of getting the email unauthenticated.
    forceAuth: credentials !== undefined,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    tls: {
      rejectUnauthorized: !server.tlsInsecure,
      // SNI takes names only; an address is matched against the certificate's IP entries.
      servername: isIP(host) ? undefined : host,
      minVersion: 'TLSv1.2',
      ...(options.ca?.length ? { ca: options.ca } : {}),
    },
    logger: false,
    debug: false,
  };

  try {
    const info = await createTransport(transport).sendMail({
      from: message.from,
      to: [...message.to],
      cc: message.cc?.length ? [...message.cc] : undefined,
      bcc: message.bcc?.length ? [...message.bcc] : undefined,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.deliveryId ? { messageId: `<${message.deliveryId}@${senderDomain(message.from)}>` } : {}),
      headers: { ...message.headers, ...(message.deliveryId ? { [DELIVERY_HEADER]: message.deliveryId } : {}) },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return { code: replyCode(info.response) ?? 250, detail: receiptDetail(info, scrubber), messageId: info.messageId };
  } catch (error) {
    throw error instanceof MailError ? error : mailFailure(error, options.timeoutMs, scrubber);
  }
}

/** The domain of the sender's address, for the Message-ID (`<id@example.com>`). */
function senderDomain(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1).trim() || 'vigil.invalid';
}

function replyCode(response: string | undefined): number | null {
  const code = Number(/^\d{3}/.exec(response ?? '')?.[0]);
  return Number.isFinite(code) && code > 0 ? code : null;
}

interface SentInfo {
  accepted: ReadonlyArray<string | { address: string }>;
  rejected: ReadonlyArray<string | { address: string }>;
  rejectedErrors?: ReadonlyArray<{ response?: string }>;
}

/** `Accepted for 2 recipients`, and whom the server refused when it took the email for some recipients only. */
function receiptDetail(info: SentInfo, scrubber: SecretScrubber): string {
  const address = (entry: string | { address: string }) => (typeof entry === 'string' ? entry : entry.address);
  const accepted = `Accepted for ${info.accepted.length} recipient${info.accepted.length === 1 ? '' : 's'}`;
  if (info.rejected.length === 0) return accepted;
  const reason = info.rejectedErrors?.[0]?.response;
  const refused = `refused ${info.rejected.map(address).join(', ')}${reason ? ` (${reason})` : ''}`;
  return scrubber.line(`${accepted}; ${refused}`);
}
