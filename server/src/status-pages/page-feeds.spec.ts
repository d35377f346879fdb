import type { StatusPageData } from '@vigil/proto';
import { atomFeed, rssFeed, xml } from './page-feeds';

const data: StatusPageData = {
  page: {
    slug: 'acme',
    title: 'Acme & <Co>',
    description: '',
    logoUrl: null,
    footer: '',
    customCss: null,
    theme: 'auto',
    historyDays: 90,
    subscribe: { email: false, webhook: false },
  },
  overall: 'outage',
  incidents: [
    {
      id: 7,
      title: 'API <down> "now"',
      impact: 'major',
      status: 'identified',
      created_at: '2026-03-10T10:00:00.000Z',
      resolved_at: null,
      components: ['API'],
      updates: [{ status: 'identified', html: '<p>Found it</p>', created_at: '2026-03-10T11:00:00.000Z' }],
    },
  ],
  history: [
    {
      id: 3,
      title: 'Old one',
      impact: 'minor',
      status: 'resolved',
      created_at: '2026-03-01T10:00:00.000Z',
      resolved_at: '2026-03-01T12:00:00.000Z',
      components: [],
      updates: [],
    },
  ],
  maintenance: [
    {
      id: 5,
      title: 'DB upgrade',
      description_html: '<p>Brief</p>',
      phase: 'scheduled',
      start: '2026-03-12T02:00:00.000Z',
      end: '2026-03-12T03:00:00.000Z',
      components: [],
    },
  ],
  groups: [],
  marks: [],
  updated_at: '2026-03-10T11:30:00.000Z',
};

describe('feeds', () => {
  it('escape the five XML characters and drop characters XML forbids', () => {
    expect(xml(`a & b < c > d " e ' f \u0001`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f ');
  });

  it('list maintenance and incidents newest first in RSS, every text escaped', () => {
    const rss = rssFeed(data, 'https://status.acme.test/');
    expect(rss).toContain('<title>Acme &amp; &lt;Co&gt;</title>');
    const titles = [...rss.matchAll(/<item>\n<title>(.*)<\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual([
      'Scheduled maintenance: DB upgrade',
      'Incident (major): API &lt;down&gt; &quot;now&quot;',
      'Resolved: Old one',
    ]);
    expect(rss).toContain('&lt;p&gt;Found it&lt;/p&gt;');
    expect(rss).not.toContain('<p>');
  });

  it('are valid Atom with html content and the feed links', () => {
    const atom = atomFeed(data, 'https://status.acme.test/', 'https://vigil.test/api/status-pages/acme/feed.atom');
    expect(atom).toContain('<link rel="self" href="https://vigil.test/api/status-pages/acme/feed.atom"/>');
    expect(atom.match(/<entry>/g)).toHaveLength(3);
    expect(atom).toContain('<content type="html">');
    expect(atom).toContain('<updated>2026-03-12T02:00:00.000Z</updated>');
  });
});
