import type { MonitorStatus } from '@vigil/proto';

const COLOURS: Record<MonitorStatus, string> = {
  up: '#2f9e44',
  down: '#e03131',
  pending: '#f08c00',
  degraded: '#e8590c',
  unreachable: '#868e96',
  maintenance: '#1c7ed6',
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Rough width of Verdana 11 px text, as shields.io-style badges are laid out. */
const textWidth = (text: string) =>
  Math.ceil([...text].reduce((w, c) => w + (/[A-Z%mwMW@]/.test(c) ? 8.5 : /[il.,:;|!' ]/.test(c) ? 3.5 : 6.5), 0)) + 10;

/** A flat two-part SVG badge: the monitor's name, then its status and 24 h uptime. */
export function badgeSvg(name: string, status: MonitorStatus, uptime: number): string {
  return labelValueSvg(name, `${status} ${uptime.toFixed(2)}%`, COLOURS[status]);
}

/** Colours of the other things a badge may say: agents' statuses, a page's banner, and no value at all. */
export const BADGE_COLOURS = {
  ...COLOURS,
  active: COLOURS.up,
  inactive: COLOURS.down,
  connecting: COLOURS.pending,
  operational: COLOURS.up,
  outage: COLOURS.down,
  neutral: '#1c7ed6',
  none: '#9f9f9f',
} as const;

/** A flat two-part SVG badge: a label (cut at 40 characters), then a value on the given colour. */
export function labelValueSvg(name: string, value: string, colour: string): string {
  const label = name.length > 40 ? `${name.slice(0, 39)}…` : name;
  const left = textWidth(label);
  const right = textWidth(value);
  const width = left + right;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escape(label)}: ${escape(value)}">
<title>${escape(label)}: ${escape(value)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${escape(colour)}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="14">${escape(label)}</text><text x="${left + right / 2}" y="14">${escape(value)}</text>
</g>
</svg>`;
}
