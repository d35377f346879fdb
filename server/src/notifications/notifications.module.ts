import { Module } from '@nestjs/common';
import { HostContextRepository } from '../agents/host-context.repository';
import { WebPushModule } from '../web-push/web-push.module';
import { AlertFeed } from './alert-feed.service';
import { AlertRecordsRepository } from './alert-records.repository';
import { AlertReminders } from './alert-reminders.service';
import { AlertSender } from './alert-sender';
import { AlertStateRepository } from './alert-state.repository';
import { AlertsService } from './alerts.service';
import { CertificateAlertsRepository } from './certificate-alerts.repository';
import { ExpiryAlertsService } from './expiry-alerts.service';
import { NotificationDispatcher } from './dispatcher.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { OutboxRepository } from './outbox.repository';
import { TemplatesController } from './templates.controller';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

@Module({
  imports: [WebPushModule],
  controllers: [NotificationsController, TemplatesController],
  providers: [
    NotificationsRepository,
    OutboxRepository,
    AlertStateRepository,
    AlertRecordsRepository,
    AlertFeed,
    AlertReminders,
    CertificateAlertsRepository,
    NotificationDispatcher,
    AlertSender,
    AlertsService,
    ExpiryAlertsService,
    NotificationsService,
    TemplatesRepository,
    TemplatesService,
    HostContextRepository,
  ],
  exports: [
    NotificationDispatcher,
    AlertRecordsRepository,
    AlertFeed,
    AlertSender,
    OutboxRepository,
    NotificationsService,
    NotificationsRepository,
  ],
})
export class NotificationsModule {}
