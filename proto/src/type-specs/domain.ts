import { settingText, type MonitorTypeSpec } from '../monitor-type-specs';

/** A registered domain name: at least two labels (letters, digits, hyphens; Unicode or `xn--`), a trailing dot allowed. */
const DOMAIN_NAME = /^(?=.{1,253}\.?$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:[\p{L}]{2,63}|xn--[a-z0-9-]{1,59})\.?$/iu;
/** A warning threshold: whole days, 1 to 365 (as certificates). */
const THRESHOLD_DAYS = /^(?:[1-9]|[1-9]\d|[12]\d\d|3[0-5]\d|36[0-5])$/;

/**
 * A domain's registration expiry, read through RDAP (RFC 9083) at the registry IANA's bootstrap file names for its
 * top-level domain (RFC 9224). Kuma has no such type: it offers `domainExpiryNotification` on its HTTP-like monitors
 * and derives the domain from their URL, so an import turns that flag into a `domain` monitor of the URL's registered
 * domain.
 */
export const DOMAIN = {
  name: { 'en-US': 'Domain expiry', 'zh-CN': '域名到期' },
  fields: [
    {
      name: 'domainName',
      kind: 'text',
      required: true,
      max: 254,
      valid: (name) => DOMAIN_NAME.test(name),
      placeholder: 'example.com',
      help: true,
    },
    { name: 'domainExpiryDays', kind: 'list', default: '30, 14, 7', max: 5, valid: (days) => THRESHOLD_DAYS.test(days), help: true },
  ],
  sources: ['expiryDays'],
  target: (parts) => settingText(parts, 'domainName').replace(/\.$/, '').toLowerCase(),
  icon: 'world-check',
} as const satisfies MonitorTypeSpec;
