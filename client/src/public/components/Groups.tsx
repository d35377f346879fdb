import type { PageComponent, PageComponentStatus, PageOverall, PublicPageGroup } from '@vigil/proto';
import { memo } from 'react';
import { type TextKey, useTexts } from '../i18n';
import { type ComponentTone, componentKey, type GroupRead, shownStatus, toneOf } from '../pageState';
import { DayBar } from './DayBar';

/** Severity order of the collapsed header's counts: problems first. */
const COUNT_ORDER: PageComponentStatus[] = [
  'down',
  'inactive',
  'unreachable',
  'degraded',
  'pending',
  'connecting',
  'maintenance',
  'up',
  'active',
];

/** A group's or the page's overall status as a colour. */
export const OVERALL_TONES: Record<PageOverall, ComponentTone> = {
  operational: 'up',
  degraded: 'degraded',
  outage: 'down',
  maintenance: 'maintenance',
};

const statusKey = (status: string) => `status.${status}` as TextKey;

function percent(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : null;
}

/** An agent's CPU, memory and disk, where the page shows them. */
function Resources({ component }: { component: PageComponent }) {
  const { t, number } = useTexts();
  const values = (['cpu', 'memory', 'disk'] as const).map((name) => [name, percent(component[name])] as const);
  if (values.every(([, value]) => value === null)) return null;
  return (
    <div className="vp-resources" data-testid={`status-agent-resources-${component.id}`}>
      {values.map(([name, value]) => (
        <div key={name} className="vp-resource">
          <span>{t(`component.${name}`)}</span>
          <span className="vp-meter" data-level={value === null ? 'none' : value < 50 ? 'low' : value < 75 ? 'mid' : 'high'}>
            <span style={{ width: `${value ?? 0}%` }} />
          </span>
          <span>{value === null ? '-' : `${number(value)} %`}</span>
        </div>
      ))}
    </div>
  );
}

/** One component: name, status, uptime over the range, its daily bar, and an agent's host and resources where shown. */
export const ComponentRow = memo(function ComponentRow({ component }: { component: PageComponent }) {
  const { t, number } = useTexts();
  const status = shownStatus(component);
  const tone = toneOf(status);
  const id = `status-${component.type}-${component.id}`;
  const facts: string[] = [];
  if (component.hostname) facts.push(component.ip_address ? `${component.hostname} · ${component.ip_address}` : component.hostname);
  if (typeof component.members === 'number') facts.push(t('component.members', { count: component.members }));
  if (typeof component.response_time === 'number') facts.push(t('component.responseTime', { value: Math.round(component.response_time) }));
  if (typeof component.certificate_days === 'number') facts.push(t('component.certificate', { days: component.certificate_days }));
  return (
    <li className="vp-item" data-testid={id} data-status={status}>
      <div className="vp-item-head">
        <span className={`vp-dot vp-tone-${tone}`} aria-hidden="true" />
        <span className="vp-name" title={component.name}>
          {component.name}
        </span>
        <span className="vp-uptime" data-testid={`${id}-uptime`}>
          {component.uptime === null ? t('component.noData') : t('component.uptime', { value: number(component.uptime) })}
        </span>
        <span className={`vp-pill vp-tone-${tone}`} data-testid={`status-${component.type}-status-${component.id}`} data-status={status}>
          {t(statusKey(status))}
        </span>
      </div>
      {facts.length > 0 && <div className="vp-facts">{facts.join(' · ')}</div>}
      <DayBar days={component.days} componentKey={componentKey(component)} testId={`${id}-bar`} />
      {component.type === 'agent' && <Resources component={component} />}
    </li>
  );
});

interface GroupSectionProps {
  group: PublicPageGroup;
  open: boolean;
  read: GroupRead | undefined;
  onToggle: (index: number) => void;
  onMore: (index: number) => void;
}

/**
 * A group of components. Its header always shows the status and counts; its items show when open: inline ones, or
 * those read so far of a large group (page by page, "show more" for the next), so the page never holds more rows
 * than the visitor asked for.
 */
export function GroupSection({ group, open, read, onToggle, onMore }: GroupSectionProps) {
  const { t, number } = useTexts();
  const items = group.items ?? read?.items ?? [];
  const total = group.items ? group.items.length : (read?.total ?? group.size);
  const counts = COUNT_ORDER.filter((status) => (group.counts[status] ?? 0) > 0).map(
    (status) => `${number(group.counts[status] ?? 0)} ${t(statusKey(status))}`,
  );
  const listId = `status-group-items-${group.index}`;
  return (
    <section className="vp-group" data-testid={`status-group-${group.index}`} data-status={group.status}>
      <button
        type="button"
        className="vp-group-head"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => onToggle(group.index)}
        data-testid={`status-group-toggle-${group.index}`}
      >
        <span className={`vp-dot vp-tone-${OVERALL_TONES[group.status]}`} aria-hidden="true" />
        <span className="vp-group-name">{group.name}</span>
        <span className="vp-group-counts" data-testid={`status-group-counts-${group.index}`}>
          {counts.join(' · ') || t('groups.size', { count: number(group.size) })}
        </span>
        <span className="vp-chevron" aria-hidden="true">
          {open ? '−' : '+'}
        </span>
        <span className="vp-sr">{open ? t('groups.collapse') : t('groups.expand')}</span>
      </button>
      {open && (
        <div id={listId}>
          <ul className="vp-items">
            {items.map((component) => (
              <ComponentRow key={`${component.type}-${component.id}`} component={component} />
            ))}
          </ul>
          {read?.loading && <p className="vp-muted">{t('groups.loading')}</p>}
          {read?.failed && <p className="vp-error">{t('groups.loadError')}</p>}
          {!group.items && read && !read.loading && (read.failed || items.length < total) && (
            <button
              type="button"
              className="vp-button vp-more"
              onClick={() => onMore(group.index)}
              data-testid={`status-group-more-${group.index}`}
            >
              {read.failed ? t('page.retry') : t('groups.more', { shown: number(items.length), total: number(total) })}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
