import { Injectable } from '@nestjs/common';
import type { NotificationEvent, TemplateLanguage, TemplateRequest } from '@vigil/proto';
import { DataSource, EntityManager } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';

export interface TemplateRow {
  id: number;
  name: string;
  event: NotificationEvent;
  language: TemplateLanguage;
  subject: string;
  content: string;
  created_at: Date;
  updated_at: Date;
}

/** One channel's choice of a custom template for one event. */
export interface ChannelTemplateRow {
  channel_id: number;
  event: NotificationEvent;
  template_id: number;
}

const COLUMNS = 'id, name, event, language, subject, content, created_at, updated_at';

/** Thrown inside a choice's transaction when a chosen template is missing or written for another event. */
export class TemplateMismatch extends Error {}

/** Custom notification templates and the channels' choices of them, in SQL. */
@Injectable()
export class TemplatesRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<TemplateRow[]> {
    return queryRows<TemplateRow>(this.dataSource, `SELECT ${COLUMNS} FROM notification_templates ORDER BY id`);
  }

  template(id: number): Promise<TemplateRow | null> {
    return queryRow<TemplateRow>(this.dataSource, `SELECT ${COLUMNS} FROM notification_templates WHERE id = $1`, [id]);
  }

  /** The template locked until the transaction `db` ends: what an audited change compares against. */
  templateForUpdate(id: number, db: Sql): Promise<TemplateRow | null> {
    return queryRow<TemplateRow>(db, `SELECT ${COLUMNS} FROM notification_templates WHERE id = $1 FOR UPDATE`, [id]);
  }

  async insert(template: TemplateRequest, db: Sql = this.dataSource): Promise<number> {
    const row = await queryRow<{ id: number }>(
      db,
      `INSERT INTO notification_templates (name, event, language, subject, content) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [template.name, template.event, template.language, template.subject, template.content],
    );
    return row!.id;
  }

  /** A template whose event changes is no longer chosen by channels for the old event: they fall back to the default. */
  update(id: number, template: TemplateRequest, db?: EntityManager): Promise<boolean> {
    const write = async (manager: EntityManager) => {
      await execute(manager, `DELETE FROM notification_channel_templates WHERE template_id = $1 AND event <> $2`, [id, template.event]);
      const updated = await execute(
        manager,
        `UPDATE notification_templates SET name = $2, event = $3, language = $4, subject = $5, content = $6, updated_at = now()
         WHERE id = $1 RETURNING id`,
        [id, template.name, template.event, template.language, template.subject, template.content],
      );
      return updated > 0;
    };
    return db ? write(db) : this.dataSource.transaction(write);
  }

  /** Channels that chose it fall back to the default (the choice goes with it, ON DELETE CASCADE). */
  async remove(id: number, db: Sql = this.dataSource): Promise<boolean> {
    return (await execute(db, `DELETE FROM notification_templates WHERE id = $1 RETURNING id`, [id])) > 0;
  }

  /** Every channel's choices, or one channel's. */
  channelTemplates(channelId?: number): Promise<ChannelTemplateRow[]> {
    return channelId === undefined
      ? queryRows<ChannelTemplateRow>(this.dataSource, `SELECT channel_id, event, template_id FROM notification_channel_templates`)
      : queryRows<ChannelTemplateRow>(
          this.dataSource,
          `SELECT channel_id, event, template_id FROM notification_channel_templates WHERE channel_id = $1`,
          [channelId],
        );
  }

  /**
   * Replaces a channel's choices in one transaction: false when the channel does not exist; `TemplateMismatch` (and
   * nothing changed) when a template is missing or written for another event.
   */
  /**
   * Inside the caller's transaction (`manager`): the channel's name and its choices before, or null when there is no
   * such channel.
   */
  async replaceChannelTemplates(
    manager: EntityManager,
    channelId: number,
    choices: Array<{ event: NotificationEvent; templateId: number }>,
  ): Promise<{ name: string; before: Record<string, number> } | null> {
    const channel = await queryRow<{ name: string }>(manager, `SELECT name FROM notification_channels WHERE id = $1 FOR UPDATE`, [
      channelId,
    ]);
    if (!channel) return null;
    const previous = await queryRows<{ event: string; template_id: number }>(
      manager,
      `SELECT event, template_id FROM notification_channel_templates WHERE channel_id = $1`,
      [channelId],
    );
    const result = { name: channel.name, before: Object.fromEntries(previous.map((row) => [row.event, row.template_id])) };
    await execute(manager, `DELETE FROM notification_channel_templates WHERE channel_id = $1`, [channelId]);
    if (!choices.length) return result;
    const inserted = await execute(
      manager,
      `INSERT INTO notification_channel_templates (channel_id, event, template_id)
       SELECT $1, t.event, t.id FROM unnest($2::text[], $3::int[]) AS c(event, id)
       JOIN notification_templates t ON t.id = c.id AND t.event = c.event
       RETURNING template_id`,
      [channelId, choices.map((c) => c.event), choices.map((c) => c.templateId)],
    );
    if (inserted !== choices.length) throw new TemplateMismatch();
    return result;
  }
}
