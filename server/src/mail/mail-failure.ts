import { describeRefusal, outboundRefusal } from '../common/outbound';
import { describeCertificateCode } from '../monitors/checkers/peer-certificate';

/** A server's reply is cut to this in a failure text. */
const REPLY_LENGTH = 160;
const REDACTED = '[redacted]';

/** An email that was not sent: a short text without secrets, and whether trying again later may succeed. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The SMTP reply code that refused it, when a reply did. */
    readonly replyCode: number | null = null,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** Takes a mail server's password and username out of a reply before it is shown (also as AUTH would encode them). */
export class SecretScrubber {
  private readonly secrets: string[];

  constructor(username: string | undefined, password: string | undefined) {
    const secrets = new Set<string>();
    if (password) {
      secrets.add(password);
      secrets.add(Buffer.from(password).toString('base64'));
      secrets.add(Buffer.from(`\u0000${username ?? ''}\u0000${password}`).toString('base64'));
    }
    this.secrets = [...secrets].filter((secret) => secret.length >= 3).sort((a, b) => b.length - a.length);
  }

  /** One line of at most REPLY_LENGTH characters, without the secrets or control characters. */
  line(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join(REDACTED);
    result = result.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
    return result.length > REPLY_LENGTH ? `${result.slice(0, REPLY_LENGTH - 1)}…` : result;
  }
}

interface Failure {
  name?: string;
  code?: string;
  /** nodemailer keeps a system error's code here when it files the error under its own (ESOCKET, ETLS). */
  originalCode?: string;
  message?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  cause?: { code?: string; message?: string };
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection closed by the server',
  EPIPE: 'Connection closed by the server',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Host unreachable',
  ENOTFOUND: 'DNS lookup failed: host not found',
  EAI_AGAIN: 'DNS lookup failed: host not found',
  EAI_NONAME: 'DNS lookup failed: host not found',
  EAI_NODATA: 'DNS lookup failed: host not found',
};

/**
 * What went wrong, in the words the delivery history and the "send test" dialog show. Retryable: network errors,
 * timeouts, TLS errors (a certificate gets renewed) and 4xx replies; not retryable: the outbound policy's refusal, a
 * server without STARTTLS, and 5xx replies (a refused login, sender or recipient fails the same way next time).
 */
export function mailFailure(error: unknown, timeoutMs: number, scrubber: SecretScrubber): MailError {
  const failure = (error ?? {}) as Failure;
  const refused = outboundRefusal(error);
  if (refused) return new MailError(describeRefusal(refused), false);

  const codes = [failure.originalCode, failure.code, failure.cause?.code].filter((code): code is string => !!code);
  const reply = failure.response ? scrubber.line(failure.response) : '';
  const replyCode = failure.responseCode ?? null;
  const permanent = replyCode !== null && replyCode >= 500;

  if (failure.name === 'TimeoutError' || failure.name === 'AbortError' || codes.includes('ETIMEDOUT')) {
    return new MailError(`Timed out after ${Math.round(timeoutMs / 100) / 10} s`, true);
  }
  const network = codes.map((code) => NETWORK[code]).find(Boolean);
  if (network) return new MailError(network, true);
  const certificate = codes.find((code) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code));
  if (certificate) return new MailError(describeCertificateCode(certificate), true);
  if (failure.command === 'STARTTLS' || /STARTTLS/.test(failure.message ?? '')) {
    return new MailError('The server does not offer STARTTLS; refusing to send in plain text', false, replyCode);
  }
  if (codes.includes('ETLS') || /SSL|TLS/.test(codes.join(' '))) {
    return new MailError(`TLS error: ${scrubber.line(failure.cause?.message ?? failure.message ?? 'handshake failed')}`, true);
  }
  if (codes.includes('EAUTH')) {
    return new MailError(reply ? `Authentication failed (${reply})` : 'Authentication failed', !permanent && replyCode !== null, replyCode);
  }
  if (codes.includes('EENVELOPE') && reply) {
    const what = failure.command === 'MAIL FROM' ? 'Sender refused' : failure.command === 'DATA' ? 'Message refused' : 'Recipient refused';
    return new MailError(`${what}: ${reply}`, !permanent, replyCode);
  }
  if (reply) return new MailError(`The server refused the email: ${reply}`, !permanent, replyCode);
  if (codes.includes('ECONNECTION') || codes.includes('ESOCKET')) return new MailError('Connection closed by the server', true);
  return new MailError(`Sending failed: ${scrubber.line(failure.message || codes[0] || 'unknown error')}`, true);
}
