import type { ChannelLanguage } from '@vigil/proto';
import { confirmationMail, noticeMail, unsubscribeHeaders } from './subscription-mail';
import type { StoredNotice } from './subscription-notices';

const HOSTILE = `<script>alert("x")</script> & <img src=x onerror=alert(1)>`;
const PAGE_URL = 'https://status.example.com/status/shop';
const UNSUBSCRIBE = 'https://status.example.com/api/subscriptions/unsubscribe?token=abc&x="y"';

const incident: StoredNotice = {
  type: 'incident.updated',
  page: { slug: 'shop', title: HOSTILE },
  text: `Markdown **as written** ${HOSTILE}`,
  incident: {
    id: 1,
    title: HOSTILE,
    impact: 'critical',
    status: 'monitoring',
    created_at: '2026-03-01T10:00:00.000Z',
    resolved_at: null,
    components: [HOSTILE, 'API'],
    updates: [{ status: 'monitoring', html: '<p>A fix is <strong>deployed</strong></p>', created_at: '2026-03-01T11:30:00.000Z' }],
  },
};

const maintenance: StoredNotice = {
  type: 'maintenance.scheduled',
  page: { slug: 'shop', title: 'Shop' },
  text: 'Upgrade',
  maintenance: {
    id: 2,
    title: 'Upgrade',
    description_html: '<p>Upgrade</p>',
    phase: 'scheduled',
    start: '2026-03-10T02:00:00.000Z',
    end: '2026-03-10T04:00:00.000Z',
    components: [],
  },
};

/** The HTML with the parts inserted as markup taken out: what is left must hold no tag of the hostile text. */
const withoutTrusted = (html: string) => html.replace('<p>A fix is <strong>deployed</strong></p>', '');

describe('subscription mails', () => {
  it.each<ChannelLanguage>(['en-US', 'zh-CN'])(
    'escape every value in the HTML of a notice (%s), inserting only the update as markup',
    (language) => {
      const mail = noticeMail(language, incident, PAGE_URL, UNSUBSCRIBE);
      expect(mail.html).toContain('<p>A fix is <strong>deployed</strong></p>');
      expect(withoutTrusted(mail.html)).not.toMatch(/<script|<img|x="y"/);
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;');
      expect(mail.html).toContain(`href="https://status.example.com/api/subscriptions/unsubscribe?token=abc&amp;x=&quot;y&quot;"`);
    },
  );

  it('write a notice in plain text too: title, status, impact, components, time, the Markdown as written, the links', () => {
    const mail = noticeMail('en-US', incident, PAGE_URL, UNSUBSCRIBE);
    expect(mail.subject).toBe(`[${HOSTILE}] Update: ${HOSTILE}`);
    expect(mail.text.split('\n')).toEqual([
      HOSTILE,
      'Status: Monitoring',
      'Impact: Critical',
      `Affected: ${HOSTILE}, API`,
      '2026-03-01 11:30:00 UTC',
      '',
      `Markdown **as written** ${HOSTILE}`,
      '',
      '--',
      `You receive this because you subscribed to the status notices of ${HOSTILE}.`,
      `Status page: ${PAGE_URL}`,
      `Unsubscribe: ${UNSUBSCRIBE}`,
    ]);
  });

  it('speak the channel language', () => {
    expect(noticeMail('zh-CN', maintenance, PAGE_URL, UNSUBSCRIBE).subject).toBe('[Shop] 计划维护: Upgrade');
    expect(noticeMail('en-US', maintenance, PAGE_URL, UNSUBSCRIBE).text).toContain(
      'Starts: 2026-03-10 02:00:00 UTC\nEnds: 2026-03-10 04:00:00 UTC',
    );
  });

  it('ask for confirmation with the link and nothing else to act on, the page title escaped', () => {
    const mail = confirmationMail('en-US', HOSTILE, 'https://status.example.com/api/subscriptions/confirm?token=t0k', 7);
    expect(mail.subject).toBe(`Confirm your subscription to ${HOSTILE}`);
    expect(mail.text).toContain('Confirm the subscription: https://status.example.com/api/subscriptions/confirm?token=t0k');
    expect(mail.text).toContain('forgotten after 7 days');
    expect(mail.html).not.toMatch(/<script|<img/);
    expect(mail.html.match(/href="/g)).toHaveLength(1);
  });

  it('offer one-click unsubscribe (RFC 8058)', () => {
    expect(unsubscribeHeaders('https://x.test/u?token=t')).toEqual({
      'List-Unsubscribe': '<https://x.test/u?token=t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
