import type { PublicIncident, PublicMaintenance, StatusPageData } from '@vigil/proto';

/** Entries a feed carries at most, newest first. */
export const FEED_ENTRIES = 50;

/** Text for XML content and attribute values: the five characters XML reserves, and no character XML 1.0 forbids. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

interface Entry {
  id: string;
  title: string;
  /** Rendered, sanitised HTML (sent escaped, as the feed formats' `html` content). */
  html: string;
  updated: string;
  published: string;
}

function incidentEntry(incident: PublicIncident): Entry {
  const newest = incident.updates[0];
  const timeline = incident.updates
    .map((update) => `<p><strong>${xml(update.status)}</strong> (${xml(update.created_at)})</p>${update.html}`)
    .join('');
  return {
    id: `incident-${incident.id}`,
    title: `${incident.resolved_at ? 'Resolved' : `Incident (${incident.impact})`}: ${incident.title}`,
    html: (incident.components.length ? `<p>Affects: ${xml(incident.components.join(', '))}</p>` : '') + timeline,
    updated: incident.resolved_at ?? newest?.created_at ?? incident.created_at,
    published: incident.created_at,
  };
}

function maintenanceEntry(window: PublicMaintenance): Entry {
  const when = window.end ? `${window.start} – ${window.end}` : `from ${window.start}`;
  return {
    id: `maintenance-${window.id}-${window.start}`,
    title: `${window.phase === 'active' ? 'Maintenance in progress' : 'Scheduled maintenance'}: ${window.title}`,
    html: `<p>${xml(when)}</p>${window.components.length ? `<p>Affects: ${xml(window.components.join(', '))}</p>` : ''}${window.description_html}`,
    updated: window.start,
    published: window.start,
  };
}

/** The page's incidents (open and of its range) and maintenance windows, newest first. */
function entriesOf(data: StatusPageData): Entry[] {
  return [...data.incidents, ...data.history]
    .map(incidentEntry)
    .concat(data.maintenance.map(maintenanceEntry))
    .sort((a, b) => Date.parse(b.updated) - Date.parse(a.updated))
    .slice(0, FEED_ENTRIES);
}

/** RSS 2.0 of a page; `link` is the page's public address. */
export function rssFeed(data: StatusPageData, link: string): string {
  const title = data.page.title || data.page.slug;
  const items = entriesOf(data)
    .map(
      (entry) => `<item>
<title>${xml(entry.title)}</title>
<link>${xml(`${link}#${entry.id}`)}</link>
<guid isPermaLink="false">${xml(`${link}#${entry.id}`)}</guid>
<pubDate>${new Date(entry.updated).toUTCString()}</pubDate>
<description>${xml(entry.html)}</description>
</item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
<channel>
<title>${xml(title)}</title>
<link>${xml(link)}</link>
<description>${xml(data.page.description || title)}</description>
<lastBuildDate>${new Date(data.updated_at).toUTCString()}</lastBuildDate>
${items}
</channel>
</rss>
`;
}

/** Atom 1.0 of a page; `link` is the page's public address, `self` the feed's own. */
export function atomFeed(data: StatusPageData, link: string, self: string): string {
  const entries = entriesOf(data);
  const title = data.page.title || data.page.slug;
  const body = entries
    .map(
      (entry) => `<entry>
<id>${xml(`${link}#${entry.id}`)}</id>
<title>${xml(entry.title)}</title>
<link href="${xml(`${link}#${entry.id}`)}"/>
<published>${new Date(entry.published).toISOString()}</published>
<updated>${new Date(entry.updated).toISOString()}</updated>
<content type="html">${xml(entry.html)}</content>
</entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${xml(link)}</id>
<title>${xml(title)}</title>
<link href="${xml(link)}"/>
<link rel="self" href="${xml(self)}"/>
<updated>${new Date(entries[0]?.updated ?? data.updated_at).toISOString()}</updated>
<author><name>${xml(title)}</name></author>
${body}
</feed>
`;
}
