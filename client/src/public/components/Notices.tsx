import type { PublicIncident, PublicMaintenance } from '@vigil/proto';
import { useState } from 'react';
import { useTexts } from '../i18n';

/**
 * Markdown the server rendered. The `html` fields of incidents and maintenance are sanitised on the server (no
 * script, no event handlers, no styles; see proto's IncidentUpdateDto.html); they are the only markup this page ever
 * inserts as HTML.
 */
function ServerHtml({ html, testId }: { html: string; testId?: string }) {
  return <div className="vp-md" dangerouslySetInnerHTML={{ __html: html }} data-testid={testId} />;
}

function Affects({ components }: { components: string[] }) {
  const { t } = useTexts();
  return (
    <p className="vp-muted">
      {components.length ? t('incidents.affects', { components: components.join(', ') }) : t('incidents.everything')}
    </p>
  );
}

function Timeline({ incident }: { incident: PublicIncident }) {
  const { t, dateTime } = useTexts();
  return (
    <ol className="vp-timeline" aria-label={t('incidents.timeline')}>
      {incident.updates.map((update, index) => (
        <li key={`${update.created_at}-${index}`} data-testid={`status-incident-update-${incident.id}`}>
          <div className="vp-timeline-head">
            <strong>{t(`incidents.status.${update.status}`)}</strong>
            <time dateTime={update.created_at}>{dateTime(update.created_at)}</time>
          </div>
          <ServerHtml html={update.html} />
        </li>
      ))}
    </ol>
  );
}

/** An unresolved incident: title, impact, status, what it affects and its updates, newest first. */
function ActiveIncident({ incident }: { incident: PublicIncident }) {
  const { t, dateTime } = useTexts();
  return (
    <article
      className={`vp-card vp-incident vp-impact-${incident.impact}`}
      data-testid={`status-incident-${incident.id}`}
      data-impact={incident.impact}
    >
      <header className="vp-card-head">
        <h3>{incident.title}</h3>
        <span className="vp-pill vp-impact">{t(`incidents.impact.${incident.impact}`)}</span>
        <span className="vp-pill">{t(`incidents.status.${incident.status}`)}</span>
      </header>
      <p className="vp-muted">{t('incidents.started', { time: dateTime(incident.created_at) })}</p>
      <Affects components={incident.components} />
      <Timeline incident={incident} />
    </article>
  );
}

export function ActiveIncidents({ incidents }: { incidents: PublicIncident[] }) {
  const { t } = useTexts();
  if (incidents.length === 0) return null;
  return (
    <section className="vp-section" data-testid="status-incidents" aria-label={t('incidents.active')}>
      <h2>{t('incidents.active')}</h2>
      {incidents.map((incident) => (
        <ActiveIncident key={incident.id} incident={incident} />
      ))}
    </section>
  );
}

/** Active windows first, then scheduled ones, as the server orders them. */
export function MaintenanceList({ windows }: { windows: PublicMaintenance[] }) {
  const { t, dateTime } = useTexts();
  if (windows.length === 0) return null;
  return (
    <section className="vp-section" data-testid="status-maintenance" aria-label={t('maintenance.title')}>
      <h2>{t('maintenance.title')}</h2>
      {windows.map((window) => (
        <article
          key={window.id}
          className="vp-card vp-maintenance-card"
          data-testid={`status-maintenance-${window.id}`}
          data-phase={window.phase}
        >
          <header className="vp-card-head">
            <h3>{window.title}</h3>
            <span className={`vp-pill ${window.phase === 'active' ? 'vp-tone-maintenance' : ''}`}>{t(`maintenance.${window.phase}`)}</span>
          </header>
          <p className="vp-muted">
            {window.end
              ? t('maintenance.window', { start: dateTime(window.start), end: dateTime(window.end) })
              : t('maintenance.open', { start: dateTime(window.start) })}
          </p>
          <Affects components={window.components} />
          {window.description_html && <ServerHtml html={window.description_html} />}
        </article>
      ))}
    </section>
  );
}

/** A resolved incident of the range: one line, its timeline built only when opened. */
function PastIncident({ incident }: { incident: PublicIncident }) {
  const { t, dateTime } = useTexts();
  const [open, setOpen] = useState(false);
  return (
    <details
      className={`vp-past vp-impact-${incident.impact}`}
      data-testid={`status-history-${incident.id}`}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        <span className="vp-past-title">{incident.title}</span>
        <span className="vp-muted">
          {incident.resolved_at ? t('incidents.resolved', { time: dateTime(incident.resolved_at) }) : dateTime(incident.created_at)}
        </span>
      </summary>
      {open && (
        <>
          <Affects components={incident.components} />
          <Timeline incident={incident} />
        </>
      )}
    </details>
  );
}

export function History({ incidents, days }: { incidents: PublicIncident[]; days: number }) {
  const { t } = useTexts();
  return (
    <section className="vp-section" data-testid="status-history" aria-label={t('incidents.history')}>
      <h2>{t('incidents.history')}</h2>
      {incidents.length === 0 ? (
        <p className="vp-muted">{t('incidents.noHistory', { days })}</p>
      ) : (
        incidents.map((incident) => <PastIncident key={incident.id} incident={incident} />)
      )}
    </section>
  );
}
