import type { ChannelLanguage, IncidentImpact, IncidentStatus, SubscriptionNoticeType } from '@vigil/proto';
import { formatTime } from '../notifications/messages';
import { escapeHtml } from '../notifications/providers/text';
import type { StoredNotice } from './subscription-notices';

/** One email: subject, plain text and HTML parts. */
export interface MailParts {
  subject: string;
  text: string;
  html: string;
}

interface Words {
  confirmSubject: (page: string) => string;
  confirmIntro: (page: string) => string;
  confirmAction: string;
  confirmIgnore: (days: number) => string;
  subjects: Record<SubscriptionNoticeType, string>;
  status: Record<IncidentStatus, string>;
  impact: Record<IncidentImpact, string>;
  labels: { status: string; impact: string; affected: string; starts: string; ends: string; ended: string; page: string };
  footer: (page: string) => string;
  unsubscribe: string;
}

/** Texts in the language of the page's SMTP channel (the operator chose it for the mails that channel sends). */
const WORDS: Record<ChannelLanguage, Words> = {
  'en-US': {
    confirmSubject: (page) => `Confirm your subscription to ${page}`,
    confirmIntro: (page) => `Someone, hopefully you, asked to receive the incident and maintenance notices of ${page} at this address.`,
    confirmAction: 'Confirm the subscription',
    confirmIgnore: (days) => `If it was not you, ignore this email: nothing more is sent, and the request is forgotten after ${days} days.`,
    subjects: {
      'incident.created': 'Incident',
      'incident.updated': 'Update',
      'incident.resolved': 'Resolved',
      'maintenance.scheduled': 'Scheduled maintenance',
      'maintenance.started': 'Maintenance started',
      'maintenance.ended': 'Maintenance completed',
    },
    status: { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' },
    impact: { none: 'None', minor: 'Minor', major: 'Major', critical: 'Critical' },
    labels: {
      status: 'Status',
      impact: 'Impact',
      affected: 'Affected',
      starts: 'Starts',
      ends: 'Ends',
      ended: 'Ended',
      page: 'Status page',
    },
    footer: (page) => `You receive this because you subscribed to the status notices of ${page}.`,
    unsubscribe: 'Unsubscribe',
  },
  'zh-CN': {
    confirmSubject: (page) => `请确认订阅 ${page}`,
    confirmIntro: (page) => `有人（希望是你）请求用此地址接收 ${page} 的故障与维护通知。`,
    confirmAction: '确认订阅',
    confirmIgnore: (days) => `如果不是你本人操作，请忽略此邮件：不会再发送任何内容，该请求将在 ${days} 天后失效。`,
    subjects: {
      'incident.created': '故障',
      'incident.updated': '更新',
      'incident.resolved': '已解决',
      'maintenance.scheduled': '计划维护',
      'maintenance.started': '维护开始',
      'maintenance.ended': '维护结束',
    },
    status: { investigating: '调查中', identified: '已定位', monitoring: '观察中', resolved: '已解决' },
    impact: { none: '无影响', minor: '轻微', major: '严重', critical: '紧急' },
    labels: { status: '状态', impact: '影响', affected: '受影响', starts: '开始', ends: '结束', ended: '结束于', page: '状态页' },
    footer: (page) => `你收到此邮件是因为订阅了 ${page} 的状态通知。`,
    unsubscribe: '退订',
  },
};

const time = (iso: string) => formatTime(new Date(iso));

/** The card every mail is: inline styles only (mail clients drop style sheets); `body` is HTML already escaped. */
function card(subject: string, body: string[], footer: string[]): string {
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif">',
    '<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:4px solid #1c7ed6;padding:24px;color:#373a40;font-size:14px;line-height:1.6">',
    `<h2 style="margin:0 0 16px;font-size:18px;color:#1a1b1e">${escapeHtml(subject)}</h2>`,
    ...body,
    ...(footer.length ? [`<p style="margin:24px 0 0;font-size:12px;color:#868e96">${footer.join('<br>\n')}</p>`] : []),
    '</div></body></html>',
  ].join('\n');
}

const link = (url: string, label: string) => `<a href="${escapeHtml(url)}" style="color:#1c7ed6">${escapeHtml(label)}</a>`;
const paragraph = (html: string) => `<p style="margin:0 0 12px">${html}</p>`;

/** The double opt-in request: nothing else goes to the address before its link is opened. */
export function confirmationMail(language: ChannelLanguage, pageTitle: string, confirmUrl: string, days: number): MailParts {
  const words = WORDS[language];
  const subject = words.confirmSubject(pageTitle);
  return {
    subject,
    text: [words.confirmIntro(pageTitle), '', `${words.confirmAction}: ${confirmUrl}`, '', words.confirmIgnore(days)].join('\n'),
    html: card(
      subject,
      [
        paragraph(escapeHtml(words.confirmIntro(pageTitle))),
        paragraph(link(confirmUrl, words.confirmAction)),
        paragraph(escapeHtml(words.confirmIgnore(days))),
      ],
      [],
    ),
  };
}

/**
 * A notice of an incident or a maintenance window. Every value is escaped; the update's HTML (the incident's own
 * sanitised rendering) and the description's (rendered the same way) are the only markup inserted as they are.
 */
export function noticeMail(language: ChannelLanguage, notice: StoredNotice, pageUrl: string, unsubscribeUrl: string): MailParts {
  const words = WORDS[language];
  const name = 'incident' in notice ? notice.incident.title : notice.maintenance.title;
  const subject = `[${notice.page.title}] ${words.subjects[notice.type]}: ${name}`;
  const facts: Array<[string, string]> = [];
  let html: string;
  if ('incident' in notice) {
    const { incident } = notice;
    const update = incident.updates[0];
    facts.push([words.labels.status, words.status[update.status]], [words.labels.impact, words.impact[incident.impact]]);
    if (incident.components.length) facts.push([words.labels.affected, incident.components.join(', ')]);
    facts.push(['', time(update.created_at)]);
    html = update.html;
  } else {
    const { maintenance } = notice;
    if (maintenance.start) facts.push([words.labels.starts, time(maintenance.start)]);
    if (maintenance.end) facts.push([maintenance.phase === 'ended' ? words.labels.ended : words.labels.ends, time(maintenance.end)]);
    if (maintenance.components.length) facts.push([words.labels.affected, maintenance.components.join(', ')]);
    html = maintenance.description_html;
  }
  const factLine = ([label, value]: [string, string]) => (label ? `${label}: ${value}` : value);
  const footer = [words.footer(notice.page.title), `${words.labels.page}: ${pageUrl}`, `${words.unsubscribe}: ${unsubscribeUrl}`];
  return {
    subject,
    text: [name, ...facts.map(factLine), ...(notice.text ? ['', notice.text] : []), '', '--', ...footer].join('\n'),
    html: card(
      subject,
      [
        paragraph(facts.map((fact) => escapeHtml(factLine(fact))).join('<br>\n')),
        ...(html ? [`<div style="margin:0 0 12px">${html}</div>`] : []),
        paragraph(link(pageUrl, notice.page.title)),
      ],
      [escapeHtml(words.footer(notice.page.title)), link(unsubscribeUrl, words.unsubscribe)],
    ),
  };
}

/** RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the link. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
