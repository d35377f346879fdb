import { DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from './agents/agents.module';
import { AlertsModule } from './alerts/alerts.module';
import { AuditModule } from './audit/audit.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import type { AppConfig } from './config/config';
import { LimitsModule } from './common/limits/limits.module';
import { OutboundModule } from './common/outbound.module';
import { ConfigModule } from './config/config.module';
import { ConfigAsCodeModule } from './config-as-code/config-as-code.module';
import { KumaImportModule } from './kuma-import/kuma-import.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { ExportsModule } from './exports/exports.module';
import { HealthModule } from './health/health.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { IncidentsModule } from './incidents/incidents.module';
import { MetricsModule } from './metrics/metrics.module';
import { MonitorsModule } from './monitors/monitors.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RedisModule } from './redis/redis.module';
import { SettingsModule } from './settings/settings.module';
import { SsoModule } from './sso/sso.module';
import { StatusModule } from './status/status.module';
import { StatusPagesModule } from './status-pages/status-pages.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { UsersModule } from './users/users.module';
import { WebPushModule } from './web-push/web-push.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        OutboundModule,
        RedisModule,
        LimitsModule,
        EventsModule,
        AuditModule,
        SettingsModule,
        UsersModule,
        AuthModule,
        SsoModule,
        ApiKeysModule,
        MonitorsModule,
        AgentsModule,
        StatusModule,
        StatusPagesModule,
        SubscriptionsModule,
        NotificationsModule,
        AlertsModule,
        MaintenanceModule,
        IncidentsModule,
        ExportsModule,
        ConfigAsCodeModule,
        KumaImportModule,
        WebPushModule,
        MetricsModule,
        RealtimeModule,
        HealthModule,
      ],
    };
  }
}
