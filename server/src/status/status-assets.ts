import { Inject, Injectable } from '@nestjs/common';
import { assetSource, isLogoAddress, MessageCode, StatusPageSettings } from '@vigil/proto';
import { badRequest } from '../common/api-exception';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { scopeCustomCss } from './custom-css';

/**
 * What the public status page may make its anonymous visitors load: the logo and the custom CSS may only point at
 * this server, data: addresses, or origins the operator allowed (`STATUS_ASSET_ORIGINS`, plus `PUBLIC_URL`'s).
 * The same origins are the only external ones in the app's CSP `img-src`/`font-src`, so the browser enforces it too.
 */
@Injectable()
export class StatusAssets {
  private readonly origins: ReadonlySet<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.origins = new Set(config.browser.assetOrigins);
  }

  /** The last CSS served and its scoped form: snapshots are rebuilt often, the CSS rarely changes. */
  private lastServed: { input: string; css: string } | null = null;

  private readonly allowOrigin = (origin: string) => this.origins.has(origin);

  private logoProblem(url: string | null | undefined): MessageCode | null {
    if (!url) return null;
    if (!isLogoAddress(url)) return 'status.logoUrlInvalid';
    const source = assetSource(url);
    return source?.kind === 'external' && !this.allowOrigin(source.origin) ? 'status.logoUrlNotAllowed' : null;
  }

  /** Refuses a configuration whose logo or CSS would load from elsewhere or style outside the page (400). */
  check(settings: Pick<StatusPageSettings, 'logoUrl' | 'customCss'>): void {
    const logo = this.logoProblem(settings.logoUrl);
    if (logo) throw badRequest(logo);
    const problem = settings.customCss ? scopeCustomCss(settings.customCss, this.allowOrigin).problems[0] : undefined;
    if (problem) throw badRequest(problem);
  }

  /**
   * The settings as visitors get them: the CSS scoped with refused parts left out, a logo that breaks the rules
   * dropped. Stored values saved before these rules (or before an origin was removed) stay as they are for the admin.
   */
  served(settings: StatusPageSettings): StatusPageSettings {
    const input = settings.customCss ?? '';
    if (this.lastServed?.input !== input) this.lastServed = { input, css: input ? scopeCustomCss(input, this.allowOrigin).css : '' };
    const css = this.lastServed.css;
    return {
      ...settings,
      logoUrl: this.logoProblem(settings.logoUrl) ? null : settings.logoUrl,
      customCss: css || null,
    };
  }
}
