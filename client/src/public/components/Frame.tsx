import type { PageOverall } from '@vigil/proto';
import { isLogoAddress } from '@vigil/proto/browser';
import { DEFAULT_PAGE_SLUG } from '@vigil/proto/status-pages';
import { useState } from 'react';
import { useTexts } from '../i18n';
import { OVERALL_TONES } from './Groups';

interface HeaderProps {
  title: string;
  description: string;
  logoUrl: string | null;
  updatedAt: string | null;
  connected: boolean;
}

/** The page's logo, title, description, when it was last updated and whether it follows changes live. */
export function Header({ title, description, logoUrl, updatedAt, connected }: HeaderProps) {
  const { t, dateTime } = useTexts();
  // Remembered per address: a new logo address is tried again.
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  // Only image addresses (this server, data: images, http(s)) become images; anything else is not shown.
  const logo = logoUrl !== null && isLogoAddress(logoUrl) && failedLogo !== logoUrl ? logoUrl.trim() : null;
  return (
    <header className="vp-header">
      <div className="vp-brand">
        {logo && (
          <img
            src={logo}
            alt={t('page.logoAlt', { title })}
            className="vigil-status-logo"
            referrerPolicy="no-referrer"
            onError={() => setFailedLogo(logoUrl)}
            data-testid="status-logo"
          />
        )}
        <div className="vp-titles">
          <h1 data-testid="status-title">{title}</h1>
          {description && (
            <p className="vp-muted vp-pre" data-testid="status-description">
              {description}
            </p>
          )}
        </div>
      </div>
      <div className="vp-header-side">
        {updatedAt && (
          <span className="vp-muted" data-testid="status-updated">
            {t('page.updated', { time: dateTime(updatedAt) })}
          </span>
        )}
        <span className="vp-live" data-testid="live-badge" data-connected={connected}>
          <span className={`vp-dot vp-tone-${connected ? 'up' : 'pending'}`} aria-hidden="true" />
          {connected ? t('live.connected') : t('live.offline')}
        </span>
      </div>
    </header>
  );
}

/** The summary line: all operational, some issues, a major outage, or maintenance in progress. */
export function Banner({ overall }: { overall: PageOverall }) {
  const { t } = useTexts();
  return (
    <div
      className={`vp-banner vp-tone-${OVERALL_TONES[overall]} vigil-status-overall`}
      role="status"
      data-testid="status-overall"
      data-overall={overall}
    >
      {t(`overall.${overall}`)}
    </div>
  );
}

/** The page's own footer text, and a way to the operator app from the default page (the spec's `/status` had one). */
export function Footer({ slug, text }: { slug: string; text: string }) {
  const { t } = useTexts();
  return (
    <footer className="vp-footer">
      {text && (
        <p className="vp-pre" data-testid="status-footer">
          {text}
        </p>
      )}
      <p className="vp-muted">
        {t('page.poweredBy')}
        {slug === DEFAULT_PAGE_SLUG && (
          <>
            {' · '}
            <a href="/login" data-testid="login-button">
              {t('page.signIn')}
            </a>
          </>
        )}
      </p>
    </footer>
  );
}
