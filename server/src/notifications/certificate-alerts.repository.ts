import { Injectable } from '@nestjs/common';
import { execute, queryRows, type Sql } from '../database/rows';

/** One threshold (or EXPIRED) of one certificate or domain registration of one monitor, announced or passed over. */
export interface CertificateMark {
  monitor_id: number;
  /** `fingerprintKey` or `registrationKey`: 64 hex digits. */
  fingerprint: string;
  threshold: number;
  expires_at: Date;
}

export const markKey = (mark: Pick<CertificateMark, 'monitor_id' | 'fingerprint' | 'threshold'>) =>
  `${mark.monitor_id}:${mark.fingerprint}:${mark.threshold}`;

/** The certificate expiry thresholds already passed (`certificate_alerts`), written inside the check's transaction. */
@Injectable()
export class CertificateAlertsRepository {
  /**
   * Records the marks and returns the keys (`monitor:fingerprint:threshold`) of those that were new. A mark another
   * transaction holds waits for it and is then skipped, so concurrent batches and instances announce it once; rows go
   * in key order, so two batches waiting on each other's marks cannot deadlock. Marks of monitors deleted meanwhile
   * are skipped. The marks of a monitor's earlier certificates that have expired are dropped when it records new
   * ones, so the table holds about one certificate per monitor.
   */
  async record(db: Sql, marks: CertificateMark[]): Promise<Set<string>> {
    if (!marks.length) return new Set();
    const inserted = await queryRows<Pick<CertificateMark, 'monitor_id' | 'fingerprint' | 'threshold'>>(
      db,
      `INSERT INTO certificate_alerts (monitor_id, fingerprint, threshold, expires_at)
       SELECT monitor_id, fingerprint, threshold, expires_at
       FROM jsonb_to_recordset($1::jsonb) AS r(monitor_id int, fingerprint varchar, threshold int, expires_at timestamptz)
       WHERE EXISTS (SELECT 1 FROM monitors m WHERE m.id = r.monitor_id)
       ORDER BY monitor_id, fingerprint, threshold
       ON CONFLICT (monitor_id, fingerprint, threshold) DO NOTHING
       RETURNING monitor_id, fingerprint, threshold`,
      [JSON.stringify(marks)],
    );
    if (inserted.length) {
      const current = [...new Map(inserted.map((m) => [`${m.monitor_id}:${m.fingerprint}`, m])).values()];
      await execute(
        db,
        `DELETE FROM certificate_alerts c USING jsonb_to_recordset($1::jsonb) AS r(monitor_id int, fingerprint varchar)
         WHERE c.monitor_id = r.monitor_id AND c.fingerprint <> r.fingerprint AND c.expires_at < now()`,
        [JSON.stringify(current.map(({ monitor_id, fingerprint }) => ({ monitor_id, fingerprint })))],
      );
    }
    return new Set(inserted.map(markKey));
  }
}
