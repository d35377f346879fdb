import { Module } from '@nestjs/common';
import { AlertSender } from './alert-sender';
import { AlertStateRepository } from './alert-state.repository';
import { AlertsService } from './alerts.service';
import { CertificateAlertsRepository } from './certificate-alerts.repository';
import { CertificateAlertsService } from './certificate-alerts.service';
import { NotificationDispatcher } from './dispatcher.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { OutboxRepository } from './outbox.repository';

@Module({
  controllers: [NotificationsController],
  providers: [
    NotificationsRepository,
    OutboxRepository,
    AlertStateRepository,
    CertificateAlertsRepository,
    NotificationDispatcher,
    AlertSender,
    AlertsService,
    CertificateAlertsService,
    NotificationsService,
  ],
  exports: [NotificationDispatcher],
})
export class NotificationsModule {}
