import { Injectable, Logger } from '@nestjs/common';
import type { AlertDto } from '@vigil/proto';
import { DomainEvents } from '../events/domain-events.service';
import { AlertRecordsRepository, toAlertDto } from './alert-records.repository';

/** Alerts as the API and the live feed show them: each with its messages, read for a whole page at once. */
@Injectable()
export class AlertFeed {
  private readonly logger = new Logger(AlertFeed.name);

  constructor(
    private readonly records: AlertRecordsRepository,
    private readonly events: DomainEvents,
  ) {}

  async dtos(ids: number[]): Promise<AlertDto[]> {
    const rows = await this.records.byIds(ids);
    const messages = await this.records.messages(rows.map((row) => row.id));
    return rows.map((row) => toAlertDto(row, messages.get(row.id) ?? []));
  }

  /** After a commit: raises `alert.changed` for each alert (the realtime listener pushes it to the `alerts` room). */
  async changed(ids: number[]): Promise<void> {
    if (!ids.length) return;
    try {
      for (const alert of await this.dtos([...new Set(ids)])) this.events.emit('alert.changed', { alert });
    } catch (error) {
      this.logger.warn(`Could not read changed alerts for the live feed: ${(error as Error).message}`);
    }
  }
}
