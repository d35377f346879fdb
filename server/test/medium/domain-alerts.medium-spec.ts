import type { MonitorDto } from '@vigil/proto';
import { DomainEvents } from '../../src/events/domain-events.service';
import { registerListeners } from '../../src/events/event-listeners';
import type { EventMap } from '../../src/events/event-map';
import { AlertSender } from '../../src/notifications/alert-sender';
import { CertificateAlertsRepository } from '../../src/notifications/certificate-alerts.repository';
import { ExpiryAlertsService } from '../../src/notifications/expiry-alerts.service';
import { NotificationsRepository } from '../../src/notifications/notifications.repository';
import { OutboxRepository } from '../../src/notifications/outbox.repository';
import { SETTINGS_DEFAULTS } from '../../src/notifications/notifications.dto';
import type { TargetSettings } from '../../src/notifications/rules';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const DAY_MS = 86_400_000;
/** The registration's expiry, fixed per spec run so that checks of "the same registration" agree on it. */
const NOW = Date.now();
const FIRST = new Date(NOW + 5 * DAY_MS + 3_600_000);
const RENEWED = new Date(FIRST.getTime() + 365 * DAY_MS);

// The settings an entry takes by default (the DTO's), enabled for the test's channels.
const settings = (channels: number[], overrides: Partial<TargetSettings> = {}): TargetSettings => ({
  ...SETTINGS_DEFAULTS,
  enabled: true,
  channels,
  ...overrides,
});

interface CheckOptions {
  /** When the check ran, in days from NOW (the days left count from it). */
  at?: number;
  expiresAt?: Date;
  status?: 'up' | 'down';
  monitorStatus?: MonitorDto['status'];
  /** The stored `domainExpiryDays` setting; undefined: left out of the settings. */
  days?: string[];
}

/** A stored check of domain monitor `id` that read the registration of `shop-<id>.example`. */
function checked(
  id: number,
  { at = 0, expiresAt = FIRST, status = 'up', monitorStatus = 'up', days = ['30', '14', '7'] }: CheckOptions = {},
) {
  return {
    monitor: {
      id,
      name: `Domain ${id}`,
      type: 'domain',
      url: `domain://shop-${id}.example`,
      status: monitorStatus,
      cert_expiry_days: [14],
      settings: { domainName: `shop-${id}.example`, ...(days ? { domainExpiryDays: days } : {}) },
    } as unknown as MonitorDto,
    check: {
      id: 1,
      status,
      status_code: 200,
      response_time: 40,
      error: status === 'up' ? null : `shop-${id}.example expired`,
      checked_at: new Date(NOW + at * DAY_MS).toISOString(),
    },
    uptime: 100,
    certificate: null,
    domainExpiry: { domain: `shop-${id}.example`, expiresAt },
  } satisfies EventMap['monitor.checked'];
}

describe(`${ExpiryAlertsService.name}: domain registrations`, () => {
  let database: MediumDatabase;
  let events: DomainEvents;
  let notifications: NotificationsRepository;
  let channel: number;
  let close: () => Promise<void>;

  beforeAll(async () => {
    database = await mediumDatabase();
    const service = await newMediumService(ExpiryAlertsService, database, {
      real: [DomainEvents, AlertSender, CertificateAlertsRepository, NotificationsRepository, OutboxRepository],
    });
    ({ close } = service);
    events = service.get(DomainEvents);
    registerListeners(events, service.sut);
    notifications = service.get(NotificationsRepository);
    channel = await notifications.insertChannel({
      name: 'Ops',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
      enabled: true,
      language: 'en-US',
    });
    await database.dataSource.query(
      `INSERT INTO monitors (id, name, url) SELECT i, 'Domain ' || i, 'domain://shop-' || i || '.example' FROM generate_series(1, 10) i`,
    );
  });
  beforeEach(async () => {
    await database.dataSource.query(`DELETE FROM notification_outbox; DELETE FROM certificate_alerts; DELETE FROM notification_settings`);
    await notifications.saveSettings('global-monitor', null, settings([channel]));
  });
  afterAll(async () => {
    await close();
    await database.close();
  });

  const record = (...checks: Array<EventMap['monitor.checked']>) =>
    events.transaction(database.dataSource, async (_manager, raise) => {
      for (const check of checks) raise('monitor.checked', check);
    });
  const outbox = (): Promise<Array<{ event: string; target: string; subject: string; text: string }>> =>
    database.dataSource.query(
      `SELECT event, target_kind || ':' || target_id AS target, message->>'subject' AS subject, message->>'text' AS text
       FROM notification_outbox ORDER BY id`,
    );
  const thresholds = async (id: number): Promise<number[]> =>
    (await database.dataSource.query(`SELECT threshold FROM certificate_alerts WHERE monitor_id = $1 ORDER BY threshold DESC`, [id])).map(
      (row: { threshold: number }) => row.threshold,
    );
  const expiring = (id: number, days: number, threshold: number) =>
    expect.objectContaining({
      event: 'domain.expiring',
      target: `monitor:${id}`,
      subject: `[Domain expiring] Domain ${id}`,
      text: expect.stringContaining(`Days remaining: ${days} (alert at ${threshold} days)`),
    });

  it('announces the smallest threshold crossed once per registration, and a renewal afresh', async () => {
    // First seen 5 days out with 30, 14, 7: one alert (7); 30 and 14 are marked done with it.
    await record(checked(1));
    const [first] = await outbox();
    expect(await outbox()).toEqual([expiring(1, 5, 7)]);
    expect(first.text).toContain('The registration of shop-1.example expires on');
    expect(await thresholds(1)).toEqual([30, 14, 7]);

    await record(checked(1));
    await record(checked(1, { at: 1 }));
    expect(await outbox()).toHaveLength(1);

    // Renewed for a year: a new registration, far from its thresholds until it nears them again.
    await record(checked(1, { at: 1, expiresAt: RENEWED }));
    expect(await outbox()).toHaveLength(1);
    await record(checked(1, { at: 345, expiresAt: RENEWED }));
    expect(await outbox()).toEqual([expiring(1, 5, 7), expiring(1, 25, 30)]);
  });

  it('reads the thresholds from the monitor’s settings, and the spec’s default when they are missing', async () => {
    await record(checked(2, { days: ['10'] }), checked(3, { days: undefined }));
    expect(await outbox()).toEqual([expiring(2, 5, 10), expiring(3, 5, 7)]);
  });

  it('announces an expired registration once, though the check is down', async () => {
    await record(checked(4, { at: 6, status: 'down' }));
    await record(checked(4, { at: 7, status: 'down' }));
    expect(await outbox()).toEqual([
      expect.objectContaining({
        event: 'domain.expired',
        subject: '[Domain expired] Domain 4',
        text: expect.stringContaining('The registration of shop-4.example expired on'),
      }),
    ]);
  });

  it('sends and marks nothing in maintenance; the first check after it announces what is due', async () => {
    await record(checked(5, { monitorStatus: 'maintenance' }));
    expect(await outbox()).toEqual([]);
    expect(await thresholds(5)).toEqual([]);
    await record(checked(5));
    expect(await outbox()).toEqual([expiring(5, 5, 7)]);
  });

  it('reads an expiry that arrived as text (a queued check’s result)', async () => {
    const queued = checked(6);
    await record({ ...queued, domainExpiry: { ...queued.domainExpiry, expiresAt: FIRST.toISOString() as unknown as Date } });
    expect(await outbox()).toEqual([expiring(6, 5, 7)]);
  });

  it('marks without sending when the settings leave expiry alerts off', async () => {
    await notifications.saveSettings('global-monitor', null, settings([channel], { on_certificate_expiry: false }));
    await record(checked(7));
    expect(await outbox()).toEqual([]);
    expect(await thresholds(7)).toEqual([30, 14, 7]);
  });
});
