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
const FIRST = 'AA:'.repeat(31) + 'AA';
const RENEWED = 'BB:'.repeat(31) + 'BB';

// The settings an entry takes by default (the DTO's), enabled for the test's channels.
const settings = (channels: number[], overrides: Partial<TargetSettings> = {}): TargetSettings => ({
  ...SETTINGS_DEFAULTS,
  enabled: true,
  channels,
  ...overrides,
});

interface CheckOptions {
  fingerprint?: string;
  passed?: boolean;
  thresholds?: number[];
}

/** A stored check of monitor `id` whose certificate has `days` whole days left (and an hour). */
function checked(id: number, days: number, { fingerprint = FIRST, passed = true, thresholds = [21, 14, 7] }: CheckOptions = {}) {
  const now = Date.now();
  return {
    monitor: {
      id,
      name: `Shop ${id}`,
      url: `https://shop-${id}.example.com/`,
      status: 'up',
      cert_expiry_days: thresholds,
    } as MonitorDto & {
      cert_expiry_days: number[];
    },
    check: {
      id: 1,
      status: passed ? 'up' : 'down',
      status_code: passed ? 200 : null,
      response_time: 40,
      error: passed ? null : 'certificate has expired',
      checked_at: new Date(now).toISOString(),
    },
    uptime: 100,
    certificate: {
      subject: `CN=shop-${id}.example.com`,
      issuer: "Let's Encrypt R11",
      expiresAt: new Date(now + days * DAY_MS + 3_600_000),
      fingerprint,
      authorizationError: null,
    },
  } satisfies EventMap['monitor.checked'];
}

describe(`${ExpiryAlertsService.name}: certificates`, () => {
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
    // Marks belong to monitors (and go with them).
    await database.dataSource.query(
      `INSERT INTO monitors (id, name, url) SELECT i, 'Shop ' || i, 'https://shop-' || i || '.example.com/' FROM generate_series(1, 20) i`,
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

  /** Stores one batch as the results writer does: the checks raised inside its transaction. */
  const record = (...checks: Array<EventMap['monitor.checked']>) =>
    events.transaction(database.dataSource, async (_manager, raise) => {
      for (const check of checks) raise('monitor.checked', check);
    });
  const outbox = (): Promise<Array<{ event: string; target: string; subject: string; text: string }>> =>
    database.dataSource.query(
      `SELECT event, target_kind || ':' || target_id AS target, message->>'subject' AS subject, message->>'text' AS text
       FROM notification_outbox ORDER BY id`,
    );
  const marks = (id: number): Promise<Array<{ fingerprint: string; threshold: number }>> =>
    database.dataSource.query(
      `SELECT fingerprint, threshold FROM certificate_alerts WHERE monitor_id = $1 ORDER BY fingerprint, threshold DESC`,
      [id],
    );
  const expiring = (id: number, days: number, threshold: number) =>
    expect.objectContaining({
      event: 'certificate.expiring',
      target: `monitor:${id}`,
      subject: `[Certificate expiring] Shop ${id}`,
      text: expect.stringContaining(`Days remaining: ${days} (alert at ${threshold} days)`),
    });

  it('announces each threshold once per certificate, and a renewed certificate afresh', async () => {
    await record(checked(1, 20));
    expect(await outbox()).toEqual([expiring(1, 20, 21)]);

    await record(checked(1, 20));
    await record(checked(1, 19));
    expect(await outbox()).toHaveLength(1);

    await record(checked(1, 13));
    expect(await outbox()).toEqual([expiring(1, 20, 21), expiring(1, 13, 14)]);

    await record(checked(1, 5));
    await record(checked(1, 4));
    expect(await outbox()).toEqual([expiring(1, 20, 21), expiring(1, 13, 14), expiring(1, 5, 7)]);

    // The renewed certificate is first seen at 6 days: only the smallest crossed threshold is announced.
    await record(checked(1, 6, { fingerprint: RENEWED }));
    await record(checked(1, 6, { fingerprint: RENEWED }));
    const all = await outbox();
    expect(all).toHaveLength(4);
    expect(all[3]).toEqual(expiring(1, 6, 7));
    expect(all[3].text).toContain("Issuer: Let's Encrypt R11");
    expect(all[3].text).toContain('Target: https://shop-1.example.com/');
    expect((await marks(1)).filter((m) => m.fingerprint === 'bb'.repeat(32)).map((m) => m.threshold)).toEqual([21, 14, 7]);
  });

  it('announces a threshold once when two batches carrying it are stored at the same time', async () => {
    // Both batches hold monitors 2–4, in opposite orders: each mark is taken once and neither batch deadlocks.
    const ids = [2, 3, 4];
    await Promise.all([record(...ids.map((id) => checked(id, 20))), record(...[...ids].reverse().map((id) => checked(id, 20)))]);
    // Whichever batch commits first sends, in its own order.
    const sent = (await outbox()).sort((a, b) => a.target.localeCompare(b.target));
    expect(sent).toEqual(ids.map((id) => expiring(id, 20, 21)));
  });

  it('announces a threshold once when one batch holds several checks that reached it', async () => {
    await record(checked(5, 20), checked(5, 20), checked(5, 12));
    expect(await outbox()).toEqual([expiring(5, 20, 21), expiring(5, 12, 14)]);
  });

  it('does nothing for checks without a certificate or far from expiry', async () => {
    await record({ ...checked(6, 3), certificate: undefined }, { ...checked(7, 3), certificate: null }, checked(8, 40));
    expect(await outbox()).toEqual([]);
    expect([...(await marks(6)), ...(await marks(7)), ...(await marks(8))]).toEqual([]);
  });

  it('announces an expired certificate once while the check passes, and leaves a failing one to the down alert', async () => {
    await record(checked(9, -1, { passed: false }));
    expect(await outbox()).toEqual([]);
    expect((await marks(9)).map((m) => m.threshold)).toEqual([21, 14, 7]);

    // The monitor now ignores TLS errors: its check passes, so nothing else says the certificate expired.
    await record(checked(9, -1));
    await record(checked(9, -2));
    expect(await outbox()).toEqual([
      expect.objectContaining({ event: 'certificate.expired', target: 'monitor:9', subject: '[Certificate expired] Shop 9' }),
    ]);
  });

  it('forgets the marks of an expired earlier certificate once a new one is announced', async () => {
    await record(checked(10, -1));
    await record(checked(10, 20, { fingerprint: RENEWED }));
    expect(await marks(10)).toEqual([{ fingerprint: 'bb'.repeat(32), threshold: 21 }]);
  });

  it('marks a threshold without sending when the settings leave certificate alerts off, and does not send it later', async () => {
    await notifications.saveSettings('global-monitor', null, settings([channel], { on_certificate_expiry: false }));
    await record(checked(11, 20));
    expect(await outbox()).toEqual([]);
    await notifications.saveSettings('global-monitor', null, settings([channel]));
    await record(checked(11, 20));
    expect(await outbox()).toEqual([]);
    await record(checked(11, 10));
    expect(await outbox()).toEqual([expiring(11, 10, 14)]);
  });

  it('reads a certificate whose expiry arrived as text, and skips a monitor deleted meanwhile without failing the batch', async () => {
    const queued = checked(14, 20);
    const asText = {
      ...queued,
      certificate: { ...queued.certificate, expiresAt: queued.certificate.expiresAt.toISOString() as unknown as Date },
    };
    await record(asText, checked(999, 20));
    expect(await outbox()).toEqual([expiring(14, 20, 21)]);
  });

  it('sends nothing for a monitor whose own settings silence it', async () => {
    await notifications.saveSettings('monitor', 12, settings([], { override_global: true, enabled: false }));
    await record(checked(12, 20), checked(13, 20));
    expect(await outbox()).toEqual([expiring(13, 20, 21)]);
  });
});
