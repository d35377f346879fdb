import { CHANNEL_SPECS } from '@vigil/proto';
import { AddressDenyList } from '../../common/outbound';
import { MailError } from '../../mail/mail-failure';
import { sendMail } from '../../mail/mail-transport';
import { emailHtml, emailText } from './email-html';
import { DeliveryError, type ChannelProvider } from './provider';

const DEFAULT_PORT = Number(CHANNEL_SPECS.smtp.fields.find((field) => field.name === 'port')?.default ?? 587);
/** Unit specs send without the dispatcher's context: every address allowed, as undici's global agent would. */
const ANY_ADDRESS = AddressDenyList.parse('none');

/** One email through the user's own SMTP server (Vigil's mail transport), text and the same text as simple HTML. */
export const smtpProvider: ChannelProvider<'smtp'> = {
  type: 'smtp',

  /** A saved password only ever goes back to the server it was saved for: the same host and port. */
  destination(config) {
    const host = typeof config.host === 'string' ? hostName(config.host) : '';
    if (host === '') return null;
    const port = config.port === undefined || config.port === null || config.port === '' ? DEFAULT_PORT : Number(config.port);
    return Number.isInteger(port) ? `${host.includes(':') ? `[${host}]` : host}:${port}` : null;
  },

  async send(message, config, context) {
    try {
      const receipt = await sendMail(
        {
          host: config.host,
          port: config.port,
          security: config.security,
          username: config.username,
          password: config.password,
          tlsInsecure: config.tlsInsecure,
        },
        {
          from: config.from,
          to: config.to,
          cc: config.cc,
          bcc: config.bcc,
          subject: message.subject,
          text: emailText(message),
          html: emailHtml(message),
          deliveryId: context.deliveryId,
        },
        { guard: context.guard ?? ANY_ADDRESS, timeoutMs: context.timeoutMs },
      );
      return { status: receipt.code, detail: receipt.detail };
    } catch (error) {
      if (error instanceof MailError) throw new DeliveryError(error.message, null, { retryable: error.retryable });
      throw error;
    }
  },
};

/** `SMTP.Example.com.` → `smtp.example.com`, `[::1]` → `::1`. */
function hostName(host: string): string {
  return host
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}
