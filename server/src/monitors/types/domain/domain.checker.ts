import { domainToASCII } from 'node:url';
import type { OutboundGuards } from '../../../common/outbound';
import type { AppConfig } from '../../../config/config';
import type { AddedCheckTarget, Checker, Observed, ProbeResult } from '../../checkers/checker';
import { failedProbe, ProbeFailure } from '../../checkers/failure';
import { daysRemaining } from '../../checkers/peer-certificate';
import { RdapClient } from './rdap.client';

/**
 * A domain's registration expiry through RDAP: up while the registration runs, with the days left as `expiryDays`
 * (assertions and thresholds read it); down, named, when it has expired, the registry does not know the domain or
 * gives no expiration date. Answers are kept a day in this process (RdapClient): several instances each look a domain
 * up once a day, they share no cache. The registry is IANA's choice (or RDAP_BOOTSTRAP_URL's), not the monitor's, so
 * there is no endpoint to judge before saving; every connection is still judged by the monitor's outbound rules.
 */
export class DomainChecker implements Checker<'domain'> {
  readonly type = 'domain' as const;
  private readonly rdap: RdapClient;

  constructor(deps: { config: Pick<AppConfig, 'monitors'>; outbound: OutboundGuards }, now: () => number = Date.now) {
    this.rdap = new RdapClient(deps.config.monitors.rdapBootstrapUrl, deps.outbound, now);
  }

  endpoint(): null {
    return null;
  }

  async check(target: AddedCheckTarget<'domain'>): Promise<ProbeResult> {
    const started = performance.now();
    const checkedAt = new Date();
    const observed: Observed = {};
    const domain = asciiDomain(String(target.settings.domainName ?? ''));
    try {
      if (!domain) throw new ProbeFailure('The domain name is not a valid domain name');
      const registration = await this.rdap.registration(domain, target.scope, AbortSignal.timeout(target.timeout * 1000));
      if (!registration.found) {
        throw new ProbeFailure(
          `${domain} is not registered at ${registration.registry} (RDAP 404): enter the registered domain, e.g. example.com`,
          404,
        );
      }
      if (!registration.expiresAt) throw new ProbeFailure(`${registration.registry} gives no expiration date for ${domain}`, 200);
      const days = daysRemaining(registration.expiresAt, checkedAt);
      observed.metrics = { expiryDays: days };
      observed.domainExpiry = { domain, expiresAt: registration.expiresAt };
      const responseTime = Math.round(performance.now() - started);
      if (days < 0) {
        const error = `${domain} expired on ${registration.expiresAt.toISOString().slice(0, 10)}`;
        return { ok: false, statusCode: 200, responseTime, error, checkedAt, observed };
      }
      return { ok: true, statusCode: 200, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed, timeoutSeconds: target.timeout });
    }
  }

  close(): Promise<void> {
    return this.rdap.close();
  }
}

/** The name as registries know it: ASCII (punycode), lower case, without a trailing dot; null when it is none. */
export function asciiDomain(name: string): string | null {
  const ascii = domainToASCII(name.trim().replace(/\.$/, '')).toLowerCase();
  return ascii.includes('.') ? ascii : null;
}
