import {
  NOTIFICATION_EVENTS,
  renderTemplate,
  sampleValues,
  TEMPLATE_LANGUAGES,
  TEMPLATE_LIMITS,
  TEMPLATE_VARIABLES,
  unknownVariables,
  type NotificationEvent,
  type NotificationTemplateDto,
  type TemplateLanguage,
  type TemplateRequest,
} from '@vigil/proto';

/** The template dialog's values. */
export type TemplateForm = TemplateRequest;

export type TemplateField = 'name' | 'subject' | 'content';

/** A form problem: a server message code (its dictionary key is `server.<code>`), or the variables an event lacks. */
export type TemplateProblem = { field: TemplateField; code: string } | { field: 'content'; unknown: string[] };

export const isEvent = (value: string): value is NotificationEvent => (NOTIFICATION_EVENTS as readonly string[]).includes(value);
const isLanguage = (value: string): value is TemplateLanguage => (TEMPLATE_LANGUAGES as readonly string[]).includes(value);

/** The dictionary key of an event's name: `agent.cpu_high` → `…events.agent.cpuHigh` (i18next reads `_x` as a context). */
export function eventLabel(event: NotificationEvent): `notifications.templates.events.${string}` {
  return `notifications.templates.events.${event.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}`;
}

export const EMPTY_TEMPLATE: TemplateForm = { name: '', event: 'monitor.down', language: 'zh-CN', subject: '', content: '' };

/** The form for editing a custom template, or for a new custom copy of a default one. */
export function formFrom(template: NotificationTemplateDto, copyName?: string): TemplateForm {
  return {
    name: copyName ?? template.name,
    event: isEvent(template.type) ? template.type : 'monitor.down',
    language: isLanguage(template.language) ? template.language : 'zh-CN',
    subject: template.subject,
    content: template.content,
  };
}

/** The server's rules, checked before sending so the dialog answers at once (the server checks again). */
export function templateProblems(form: TemplateForm): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const name = form.name.trim();
  const subject = form.subject.trim();
  if (!name) problems.push({ field: 'name', code: 'notifications.templateNameRequired' });
  else if (name.length > TEMPLATE_LIMITS.name) problems.push({ field: 'name', code: 'notifications.templateNameTooLong' });
  if (!subject) problems.push({ field: 'subject', code: 'notifications.templateSubjectRequired' });
  else if (subject.length > TEMPLATE_LIMITS.subject) problems.push({ field: 'subject', code: 'notifications.templateSubjectTooLong' });
  if (!form.content) problems.push({ field: 'content', code: 'notifications.templateContentRequired' });
  else if (form.content.length > TEMPLATE_LIMITS.content) problems.push({ field: 'content', code: 'notifications.templateContentTooLong' });
  const unknown = unknownVariables(form.event, form.subject, form.content);
  if (unknown.length) problems.push({ field: 'content', unknown });
  return problems;
}

/** The request body: name and subject trimmed as the server stores them. */
export function templateRequest(form: TemplateForm): TemplateRequest {
  return { ...form, name: form.name.trim(), subject: form.subject.trim() };
}

/** The event's variables with the dictionary key of each one's friendly name. */
export function variablesOf(event: NotificationEvent): Array<{ name: string; label: string }> {
  return Object.entries(TEMPLATE_VARIABLES[event]).map(([name, label]) => ({ name, label }));
}

/** `text` with `{{name}}` put in place of the selection `[start, end)`, and where the caret goes after it. */
export function insertVariable(text: string, name: string, start: number, end: number): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  const placeholder = `{{${name}}}`;
  return { text: text.slice(0, from) + placeholder + text.slice(to), caret: from + placeholder.length };
}

/** The message the form's texts make with sample values in `language`: what the preview shows, as the server renders it. */
export function previewOf(form: Pick<TemplateForm, 'event' | 'subject' | 'content'>, language: TemplateLanguage) {
  const values = sampleValues(form.event, language);
  return { subject: renderTemplate(form.subject, values), text: renderTemplate(form.content, values) };
}

/** The custom templates a channel may choose for an event: those written for it. */
export function choicesFor(event: NotificationEvent, templates: NotificationTemplateDto[]): NotificationTemplateDto[] {
  return templates.filter((template) => !template.is_default && template.type === event);
}

/** The channel's choices as the route takes them: only events with a template that still exists. */
export function channelTemplatesBody(
  chosen: Partial<Record<NotificationEvent, number | null>>,
  templates: NotificationTemplateDto[],
): Partial<Record<NotificationEvent, number>> {
  const body: Partial<Record<NotificationEvent, number>> = {};
  for (const event of NOTIFICATION_EVENTS) {
    const id = chosen[event];
    if (typeof id === 'number' && choicesFor(event, templates).some((template) => template.id === id)) body[event] = id;
  }
  return body;
}
