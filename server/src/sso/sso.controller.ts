import { Controller, Get, Logger, Param, Req, Res } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SsoProvidersResponse } from '@vigil/proto';
import type { Request, Response } from 'express';
import { Public } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { SsoFailure } from './oidc-client';
import { readCookie, SSO_COOKIE, SSO_COOKIE_PATH, SSO_COOKIE_SECONDS } from './sso-cookie';
import { SsoService } from './sso.service';

/**
 * Single sign-on. `start` and `callback` are browser navigations: they answer redirects, never JSON, and a refusal
 * lands on the login page with one message code (`/login?sso_error=<code>`). The session token goes to the client in
 * the fragment of `/login/sso#token=…`, which browsers never send to a server or write into access logs.
 */
@ApiTags('auth')
@Controller('auth/sso')
export class SsoController {
  private readonly logger = new Logger(SsoController.name);

  constructor(private readonly sso: SsoService) {}

  /** The providers the login page offers, and whether password sign-in is disabled. */
  @Public()
  @Get('providers')
  @Reply()
  providers(): Promise<Payload<SsoProvidersResponse>> {
    return this.sso.providers();
  }

  @Public()
  @Get(':provider/start')
  async start(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set('Cache-Control', 'no-store');
    try {
      const { location, cookie } = await this.sso.start(provider, `${req.protocol}://${req.get('host')}`);
      res.cookie(SSO_COOKIE, cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.secure,
        path: SSO_COOKIE_PATH,
        maxAge: SSO_COOKIE_SECONDS * 1000,
      });
      res.redirect(302, location);
    } catch (error) {
      this.refuse(res, provider, error);
    }
  }

  @Public()
  @Get(':provider/callback')
  @ApiQuery({ name: 'code', required: false, description: "The provider's authorization code" })
  @ApiQuery({ name: 'state', required: false, description: 'The state sent with the authorization request' })
  @ApiQuery({ name: 'error', required: false, description: "The provider's error code, when it refused" })
  async callback(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    // Whatever the outcome, the pending sign-in is used up.
    res.clearCookie(SSO_COOKIE, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: SSO_COOKIE_PATH });
    try {
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      const token = await this.sso.callback(provider, query, readCookie(req.headers.cookie, SSO_COOKIE));
      res.redirect(302, `/login/sso#token=${encodeURIComponent(token)}`);
    } catch (error) {
      this.refuse(res, provider, error);
    }
  }

  private refuse(res: Response, provider: string, error: unknown): void {
    const failure = error instanceof SsoFailure ? error : new SsoFailure('sso.failed', (error as Error)?.message ?? String(error));
    // Names the provider and why, never a code, state, token or secret; newlines from the URL cannot forge log lines.
    const line = `Single sign-on with ${provider.slice(0, 32)} refused (${failure.code}): ${failure.message}`.replace(
      /[\r\n\u2028\u2029]+/g,
      ' ',
    );
    this.logger.warn(line);
    res.redirect(302, `/login?sso_error=${encodeURIComponent(failure.code)}`);
  }
}
