import { hostPort, settingText, type MonitorTypeSpec, type TargetParts } from '../monitor-type-specs';

/**
 * How an SMTP check secures its session, in Uptime Kuma's words so an import maps one to one: `starttls` upgrades
 * with STARTTLS (and fails when the server does not offer it), `secure` speaks TLS from the start (SMTPS), and
 * `nostarttls` stays in plaintext even when STARTTLS is offered.
 */
export const SMTP_SECURITY = ['starttls', 'secure', 'nostarttls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** The port a check connects to when none is set: 465 for SMTPS, otherwise 25 (as Kuma). */
export const smtpPort = (port: number | null | undefined, security: unknown): number => port || (security === 'secure' ? 465 : 25);

const target = (parts: TargetParts) => hostPort(parts.hostname, smtpPort(parts.port, settingText(parts, 'smtpSecurity')));

/**
 * A mail server: the greeting, EHLO, STARTTLS or SMTPS with the certificate checked, an optional sign-in (PLAIN or
 * LOGIN), then QUIT. No mail is sent.
 */
export const SMTP = {
  name: { 'en-US': 'SMTP', 'zh-CN': 'SMTP' },
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname' },
    // No default: the port follows smtpSecurity (25 or 465) unless set.
    { name: 'port', kind: 'number', min: 1, max: 65_535, column: 'port', placeholder: '25' },
    { name: 'smtpSecurity', kind: 'select', options: SMTP_SECURITY, default: 'starttls', help: true },
    { name: 'ignoreTls', kind: 'boolean', default: false },
    { name: 'smtpUsername', kind: 'text', max: 255 },
    { name: 'smtpPassword', kind: 'secret', max: 255 },
  ],
  sources: ['responseTime', 'banner', 'capabilities', 'certificateDays'],
  target,
  icon: 'mail',
  certificates: true,
  check: (config) => {
    if (config.smtpUsername && !config.smtpPassword) return { field: 'smtpPassword', code: 'notifications.fieldRequired' };
    if (config.smtpPassword && !config.smtpUsername) return { field: 'smtpUsername', code: 'notifications.fieldRequired' };
    // A password is never sent in plaintext.
    if (config.smtpUsername && config.smtpSecurity === 'nostarttls') return { field: 'smtpSecurity', code: 'monitors.smtpAuthNeedsTls' };
    return null;
  },
} as const satisfies MonitorTypeSpec;
