import { AlertsController } from '../alerts/alerts.controller';
import { MuteController } from '../alerts/mute.controller';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { firstValueFrom, of } from 'rxjs';
import { MESSAGES } from '@vigil/proto';
import { AgentsController } from '../agents/agents.controller';
import { ApiKeysController } from '../api-keys/api-keys.controller';
import { AuditController } from '../audit/audit.controller';
import { TwoFactorController } from '../auth/two-factor/two-factor.controller';
import { SsoController } from '../sso/sso.controller';
import { AuthController } from '../auth/auth.controller';
import { HealthController } from '../health/health.controller';
import { IncidentsController } from '../incidents/incidents.controller';
import { KumaImportController } from '../kuma-import/kuma-import.controller';
import { MaintenanceController } from '../maintenance/maintenance.controller';
import { MetricsController } from '../metrics/metrics.controller';
import { DependencyChainController } from '../monitors/dependencies/dependency-chain.controller';
import { ExportsController } from '../exports/exports.controller';
import { ConfigAsCodeController } from '../config-as-code/config-as-code.controller';
import { MonitorsController } from '../monitors/monitors.controller';
import { LocationsController } from '../monitors/locations/locations.controller';
import { MonitorHostController } from '../monitors/host/monitor-host.controller';
import { ManualStatusController } from '../monitors/types/manual/manual-status.controller';
import { BrowserScreenshotController } from '../monitors/types/browser/browser-screenshot.controller';
import { NotificationsController } from '../notifications/notifications.controller';
import { TemplatesController } from '../notifications/templates.controller';
import { SettingsController } from '../settings/settings.controller';
import { SubscribersController, SubscriptionsController } from '../subscriptions/subscriptions.controller';
import { StatusController } from '../status/status.controller';
import { PublicPagesController } from '../status-pages/public-pages.controller';
import { StatusPagesController } from '../status-pages/status-pages.controller';
import { UsersController } from '../users/users.controller';
import { WebPushController } from '../web-push/web-push.controller';
import { envelope, Reply, ReplyInterceptor, replyOf } from './reply';

class Sample {
  @Reply('monitors.created')
  created() {}

  @Reply()
  plain() {}

  raw() {}
}

function run(handler: () => void, payload: unknown): Promise<unknown> {
  const sut = new ReplyInterceptor(new Reflector());
  const context = { getHandler: () => handler } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of(payload) };
  return firstValueFrom(sut.intercept(context, next));
}

describe('the success envelope', () => {
  it('puts success, then the catalogued message, then the payload fields', () => {
    const answer = envelope({ monitor: { id: 1 } }, 'monitors.created');
    expect(answer).toEqual({ success: true, message: MESSAGES['monitors.created'], monitor: { id: 1 } });
    expect(Object.keys(answer)).toEqual(['success', 'message', 'monitor']);
  });

  it('has no message when the route names none, and only success when there is no payload', () => {
    expect(envelope({ users: [] })).toEqual({ success: true, users: [] });
    expect(envelope(undefined, 'users.deleted')).toEqual({ success: true, message: MESSAGES['users.deleted'] });
  });

  it('wraps what a @Reply handler returns and leaves other routes as they answer', async () => {
    expect(await run(Sample.prototype.created, { monitor: { id: 2 } })).toEqual({
      success: true,
      message: MESSAGES['monitors.created'],
      monitor: { id: 2 },
    });
    expect(await run(Sample.prototype.plain, undefined)).toEqual({ success: true });
    expect(await run(Sample.prototype.raw, 'text/plain metrics')).toBe('text/plain metrics');
  });
});

/** Routes whose answer is not the success envelope, each for a reason. */
const RAW_ROUTES = new Set([
  'MetricsController.render', // Prometheus text
  'StatusController.badge', // an SVG image
  'BrowserScreenshotController.screenshot', // a PNG image
  'NotificationsController.test', // the provider's verdict: the envelope when it accepted, success false (502) when not
  'NotificationsController.testUnsaved',
  'SsoController.start', // a redirect to the provider
  'SsoController.callback', // a redirect back into the app
  'PublicPagesController.rss', // a status page's feeds, RSS and Atom
  'PublicPagesController.atom',
  'PublicPagesController.badge', // SVG images
  'PublicPagesController.componentBadge',
  'SubscriptionsController.confirm', // a redirect back to the page
  'SubscriptionsController.unsubscribe',
  'ExportsController.checks', // CSV or JSON files, streamed
  'ExportsController.metrics',
  'ExportsController.availability', // a file, or a page in the envelope written by the handler
  'ConfigAsCodeController.export', // a YAML document
  'ConfigAsCodeController.schema', // a JSON Schema
]);

const CONTROLLERS = [
  AgentsController,
  AlertsController,
  ApiKeysController,
  AuditController,
  AuthController,
  BrowserScreenshotController,
  DependencyChainController,
  ExportsController,
  ConfigAsCodeController,
  HealthController,
  IncidentsController,
  KumaImportController,
  LocationsController,
  MaintenanceController,
  ManualStatusController,
  MetricsController,
  MonitorHostController,
  MonitorsController,
  MuteController,
  NotificationsController,
  SettingsController,
  SsoController,
  StatusController,
  StatusPagesController,
  PublicPagesController,
  SubscribersController,
  SubscriptionsController,
  TemplatesController,
  TwoFactorController,
  UsersController,
  WebPushController,
];

describe('every API route', () => {
  const routes = CONTROLLERS.flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype)
      .map((name) => ({ route: `${controller.name}.${name}`, handler: (controller.prototype as unknown as Record<string, object>)[name] }))
      .filter(({ handler }) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined),
  );

  it('is found: every controller of the server is listed here', () => {
    const files = readdirSync(join(__dirname, '..'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.controller.ts'),
    );
    // A file may hold more than one controller (a resource's public and signed-in routes).
    const declared = files.flatMap((file) => [...readFileSync(join(__dirname, '..', file), 'utf8').matchAll(/@Controller\(/g)]);
    expect(CONTROLLERS.filter((controller) => Reflect.getMetadata(PATH_METADATA, controller) !== undefined)).toHaveLength(declared.length);
    expect(routes.length).toBeGreaterThan(40);
  });

  it('answers with the envelope unless it is known to answer otherwise', () => {
    const bare = routes.filter(({ route, handler }) => !replyOf(handler) && !RAW_ROUTES.has(route)).map(({ route }) => route);
    expect(bare).toEqual([]);
  });
});
