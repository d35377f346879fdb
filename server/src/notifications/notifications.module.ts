import { Module } from '@nestjs/common';
import { AlertSender } from './alert-sender';
import { AlertStateRepository } from './alert-state.repository';
import { AlertsService } from './alerts.service';
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
    NotificationDispatcher,
    AlertSender,
    AlertsService,
    NotificationsService,
  ],
  exports: [NotificationDispatcher],
})
export class NotificationsModule {}
