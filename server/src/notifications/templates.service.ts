import { Injectable } from '@nestjs/common';
import {
  MESSAGES,
  NOTIFICATION_EVENTS,
  renderTemplate,
  sampleValues,
  unknownVariables,
  type NotificationEvent,
  type NotificationTemplateDto,
  type TemplateDto,
  type TemplatePreviewRequest,
  type TemplatePreviewResponse,
  type TemplateRequest,
} from '@vigil/proto';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { badRequest, notFound } from '../common/api-exception';
import type { CustomText } from './messages';
import { defaultTemplates } from './templates';
import { TemplateMismatch, TemplatesRepository, type TemplateRow } from './templates.repository';

/** Ids up to this name the read-only defaults (which live in code); custom templates are numbered from 1001. */
export const DEFAULT_TEMPLATE_ID_MAX = 1000;

/**
 * Custom notification templates: the defaults listed beside them read-only, texts checked against the event's
 * variables, previews with sample values, and each channel's choice of a custom template per event.
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly audit: AuditLog,
  ) {}

  /** The defaults (read-only, no times), then the custom templates. */
  async list(): Promise<TemplateDto[]> {
    const defaults = defaultTemplates().map((t) => ({ ...t, type: t.type as NotificationEvent, created_at: null, updated_at: null }));
    return [...defaults, ...(await this.repository.list()).map(toTemplateDto)];
  }

  /** The custom templates as `GET /api/notifications` lists them (the spec's fields only). */
  async custom(): Promise<NotificationTemplateDto[]> {
    return (await this.repository.list()).map(({ id, name, event, language, subject, content }) => ({
      id,
      name,
      type: event,
      language,
      subject,
      content,
      is_default: false,
    }));
  }

  async create(body: TemplateRequest): Promise<number> {
    const template = checked(body);
    return this.audit.transaction(async (db, record) => {
      const id = await this.repository.insert(template, db);
      await record({
        action: 'template.created',
        target: { type: 'template', id, name: template.name },
        changes: changesOf(null, snapshot(template)),
      });
      return id;
    });
  }

  async update(id: number, body: TemplateRequest): Promise<void> {
    this.refuseDefault(id);
    const template = checked(body);
    await this.audit.transaction(async (db, record) => {
      const before = await this.repository.templateForUpdate(id, db);
      if (!before || !(await this.repository.update(id, template, db))) throw notFound('notifications.templateNotFound');
      const changes = changesOf(snapshot(before), snapshot(template));
      if (changes) await record({ action: 'template.updated', target: { type: 'template', id, name: template.name }, changes });
    });
  }

  async remove(id: number): Promise<void> {
    this.refuseDefault(id);
    await this.audit.transaction(async (db, record) => {
      const before = await this.repository.templateForUpdate(id, db);
      if (!before || !(await this.repository.remove(id, db))) throw notFound('notifications.templateNotFound');
      await record({
        action: 'template.deleted',
        target: { type: 'template', id, name: before.name },
        changes: changesOf(snapshot(before), null),
      });
    });
  }

  /** Renders texts (saved or not) with the event's sample values; variables the event does not fill are named. */
  preview(body: TemplatePreviewRequest): TemplatePreviewResponse['data'] {
    const values = sampleValues(body.event, body.language, body.monitorType);
    return {
      subject: renderTemplate(body.subject, values),
      text: renderTemplate(body.content, values),
      unknown_variables: unknownVariables(body.event, body.subject, body.content),
    };
  }

  /** Each channel's choices, event → template id, keyed by channel id. */
  async channelChoices(): Promise<Map<number, Record<string, number>>> {
    const choices = new Map<number, Record<string, number>>();
    for (const row of await this.repository.channelTemplates()) {
      choices.set(row.channel_id, { ...choices.get(row.channel_id), [row.event]: row.template_id });
    }
    return choices;
  }

  /** The custom text a saved channel chose for an event, if any (the channel test's; alerts read it with the channel). */
  async chosenText(channelId: number, event: NotificationEvent): Promise<CustomText | undefined> {
    const choice = (await this.repository.channelTemplates(channelId)).find((row) => row.event === event);
    const template = choice ? await this.repository.template(choice.template_id) : null;
    return template ? { subject: template.subject, content: template.content, language: template.language } : undefined;
  }

  async setChannelTemplates(channelId: number, templates: Partial<Record<NotificationEvent, number | null>>): Promise<void> {
    const choices = NOTIFICATION_EVENTS.flatMap((event) => {
      const templateId = templates[event];
      return typeof templateId === 'number' ? [{ event, templateId }] : [];
    });
    try {
      await this.audit.transaction(async (db, record) => {
        const replaced = await this.repository.replaceChannelTemplates(db, channelId, choices);
        if (!replaced) throw notFound('notifications.channelNotFound');
        const after = Object.fromEntries(choices.map((choice) => [choice.event, choice.templateId]));
        const changes = changesOf({ templates: replaced.before }, { templates: after });
        await record({ action: 'channel.updated', target: { type: 'channel', id: channelId, name: replaced.name }, changes });
      });
    } catch (error) {
      if (error instanceof TemplateMismatch) throw badRequest('notifications.channelTemplateMismatch');
      throw error;
    }
  }

  private refuseDefault(id: number): void {
    if (id <= DEFAULT_TEMPLATE_ID_MAX) {
      if (defaultTemplates().some((t) => t.id === id)) throw badRequest('notifications.templateDefaultReadOnly');
      throw notFound('notifications.templateNotFound');
    }
  }
}

/** The template, or a 400 naming the variables its event does not fill. */
function checked(body: TemplateRequest): TemplateRequest {
  const unknown = unknownVariables(body.event, body.subject, body.content);
  if (unknown.length) {
    const names = unknown.map((name) => `{{${name}}}`).join(', ');
    throw badRequest('notifications.templateVariableUnknown', `${MESSAGES['notifications.templateVariableUnknown']}: ${names}`);
  }
  return { name: body.name, event: body.event, language: body.language, subject: body.subject, content: body.content };
}

function toTemplateDto(row: TemplateRow): TemplateDto {
  return {
    id: row.id,
    name: row.name,
    type: row.event,
    language: row.language,
    subject: row.subject,
    content: row.content,
    is_default: false,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const snapshot = ({ name, event, language, subject, content }: TemplateRequest) => ({ name, event, language, subject, content });
