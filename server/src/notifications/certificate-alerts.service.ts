import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { AlertSender, type Send } from './alert-sender';
import { CertificateAlertsRepository, markKey, type CertificateMark } from './certificate-alerts.repository';
import { certificateStep, daysRemaining, EXPIRED, expiryThresholds, fingerprintKey } from './certificate-rules';
import { formatTime } from './messages';

type Checked = EventMap['monitor.checked'];

/** A check whose certificate reached a mark that is announced if this transaction is the first to record it. */
interface Announcement {
  key: string;
  checked: Checked & { certificate: NonNullable<Checked['certificate']> };
  fingerprint: string;
  threshold: number;
  days: number;
}

/**
 * Certificate expiry alerts, inside the transaction that stores the checks: each threshold of the monitor's
 * `cert_expiry_days` is announced once per certificate (`certificate.expiring`), and an expired certificate that a
 * check ignoring TLS errors still accepts once (`certificate.expired`); see `certificateStep`. Which marks are done
 * lives in `certificate_alerts`, whose key makes concurrent batches and instances announce each mark once; the outbox
 * rows commit with it.
 */
@Injectable()
export class CertificateAlertsService {
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
      if (!checked.certificate || monitor.status === 'maintenance') continue;
      // A certificate that travelled as JSON (a queued check's result) carries its date as text.
      const certificate = { ...checked.certificate, expiresAt: new Date(checked.certificate.expiresAt) };
      const days = daysRemaining(certificate.expiresAt, new Date(check.checked_at));
      const step = certificateStep(days, expiryThresholds(monitor.cert_expiry_days), check.status === 'up');
      const fingerprint = fingerprintKey(certificate.fingerprint);
      for (const threshold of step.marks) {
        const mark = { monitor_id: monitor.id, fingerprint, threshold, expires_at: certificate.expiresAt };
        marks.set(markKey(mark), mark);
      }
      if (step.announce !== null) {
        const key = markKey({ monitor_id: monitor.id, fingerprint, threshold: step.announce });
        announcements.push({ key, checked: { ...checked, certificate }, fingerprint, threshold: step.announce, days });
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

function toSend({ checked, fingerprint, threshold, days }: Announcement, settings: Send['settings']): Send {
  const { monitor, check, certificate } = checked;
  return {
    settings,
    event: threshold === EXPIRED ? 'certificate.expired' : 'certificate.expiring',
    key: `monitor:${monitor.id}:certificate:${fingerprint}:${threshold}`,
    // Every warning about one certificate belongs to one episode: incident services add them to one incident.
    episode: `monitor:${monitor.id}:certificate:${fingerprint}`,
    target: { kind: 'monitor', id: monitor.id, name: monitor.name },
    vars: {
      name: monitor.name,
      target: monitor.url,
      url: monitor.url,
      days_remaining: days,
      threshold,
      expires_at: formatTime(certificate.expiresAt),
      issuer: certificate.issuer,
    },
    at: new Date(check.checked_at),
  };
}
