import { Injectable } from '@nestjs/common';
import { MONITOR_TYPE_SPECS } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { AlertSender, type Send } from './alert-sender';
import { CertificateAlertsRepository, markKey, type CertificateMark } from './certificate-alerts.repository';
import { daysRemaining, EXPIRED, expiryStep, expiryThresholds, fingerprintKey, registrationKey } from './expiry-rules';
import { formatTime, type MessageVars } from './messages';

type Checked = EventMap['monitor.checked'];

/** Something a check saw that expires, as the alerts treat it: a peer certificate or a domain registration. */
interface Expiry {
  kind: 'certificate' | 'domain';
  /** 64 hex digits: a certificate's fingerprint, a registration's name and expiry (`registrationKey`). */
  fingerprint: string;
  expiresAt: Date;
  thresholds: number[];
  /** Whether the expiry itself is announced (see `expiryStep`). */
  tellsExpiry: boolean;
  /** Its own template variables, beside the days, threshold and date every expiry fills. */
  vars: MessageVars;
}

/** An expiry that reached a mark, announced if this transaction is the first to record it. */
interface Announcement {
  key: string;
  checked: Checked;
  expiry: Expiry;
  threshold: number;
  days: number;
}

/** The domain spec's default thresholds, for settings stored without them. */
const DOMAIN_DEFAULT_DAYS = String(MONITOR_TYPE_SPECS.domain.fields.find((field) => field.name === 'domainExpiryDays')?.default ?? '')
  .split(',')
  .map(Number);

/**
 * Expiry alerts, inside the transaction that stores the checks: each threshold of a certificate (the monitor's
 * `cert_expiry_days`) or a domain registration (its `domainExpiryDays` setting) is announced once per certificate or
 * registration (`certificate.expiring`, `domain.expiring`), and the expiry itself once (`certificate.expired` while a
 * check ignoring TLS errors still accepts it; `domain.expired`); see `expiryStep`. Which marks are done lives in
 * `certificate_alerts`, whose key makes concurrent batches and instances announce each mark once; the outbox rows
 * commit with it. Both follow the settings' `on_certificate_expiry`.
 */
@Injectable()
export class ExpiryAlertsService {
  constructor(
    private readonly marks: CertificateAlertsRepository,
    private readonly sender: AlertSender,
  ) {}

  @OnEvent('monitor.checked', { phase: 'transaction' })
  private async onChecks(checks: Checked[], manager: EntityManager): Promise<void> {
    const marks = new Map<string, CertificateMark>();
    const announcements: Announcement[] = [];
    for (const checked of checks) {
      const { monitor, check } = checked;
      // In maintenance nothing is sent or marked: the first check after the window announces what is due then.
      if (monitor.status === 'maintenance') continue;
      for (const expiry of expiriesOf(checked)) {
        const days = daysRemaining(expiry.expiresAt, new Date(check.checked_at));
        const step = expiryStep(days, expiry.thresholds, expiry.tellsExpiry);
        const { fingerprint } = expiry;
        for (const threshold of step.marks) {
          const mark = { monitor_id: monitor.id, fingerprint, threshold, expires_at: expiry.expiresAt };
          marks.set(markKey(mark), mark);
        }
        if (step.announce !== null) {
          const key = markKey({ monitor_id: monitor.id, fingerprint, threshold: step.announce });
          announcements.push({ key, checked, expiry, threshold: step.announce, days });
        }
      }
    }
    if (!marks.size) return;
    const recorded = await this.marks.record(manager, [...marks.values()]);
    // Deleting the key as it is taken announces a mark once even when several checks of the batch reached it.
    const due = announcements.filter((a) => recorded.delete(a.key));
    if (!due.length) return;
    const settings = await this.sender.settings(manager, 'monitor', [...new Set(due.map((a) => a.checked.monitor.id))]);
    const sends = due.flatMap((a): Send[] => {
      const applies = settings.for(a.checked.monitor.id);
      return applies?.on_certificate_expiry ? [toSend(a, applies)] : [];
    });
    await this.sender.send(manager, sends);
  }
}

/** What of a check expires. A date that travelled as JSON (a queued check's result) arrives as text. */
function expiriesOf({ monitor, check, certificate, domainExpiry }: Checked): Expiry[] {
  const expiries: Expiry[] = [];
  if (certificate) {
    expiries.push({
      kind: 'certificate',
      fingerprint: fingerprintKey(certificate.fingerprint),
      expiresAt: new Date(certificate.expiresAt),
      thresholds: expiryThresholds(monitor.cert_expiry_days),
      tellsExpiry: check.status === 'up',
      vars: { target: monitor.url, url: monitor.url, issuer: certificate.issuer },
    });
  }
  if (domainExpiry) {
    const expiresAt = new Date(domainExpiry.expiresAt);
    const days = monitor.settings?.domainExpiryDays;
    expiries.push({
      kind: 'domain',
      fingerprint: registrationKey(domainExpiry.domain, expiresAt),
      expiresAt,
      thresholds: expiryThresholds(Array.isArray(days) ? (days as unknown[]).map(String) : undefined, DOMAIN_DEFAULT_DAYS),
      // The check is down once the registration lapses, but a domain monitor is kept for this very date: its expiry
      // is told once to the expiry setting's channels, whatever the down alert says (docs/decisions.md, issue 33).
      tellsExpiry: true,
      vars: { domain: domainExpiry.domain },
    });
  }
  return expiries;
}

function toSend({ checked, expiry, threshold, days }: Announcement, settings: Send['settings']): Send {
  const { monitor, check } = checked;
  // Every warning about one certificate or registration belongs to one episode: incident services add them to one incident.
  const episode = `monitor:${monitor.id}:${expiry.kind}:${expiry.fingerprint}`;
  return {
    settings,
    event: `${expiry.kind}.${threshold === EXPIRED ? 'expired' : 'expiring'}`,
    key: `${episode}:${threshold}`,
    episode,
    target: { kind: 'monitor', id: monitor.id, name: monitor.name },
    vars: { name: monitor.name, ...expiry.vars, days_remaining: days, threshold, expires_at: formatTime(expiry.expiresAt) },
    at: new Date(check.checked_at),
  };
}
