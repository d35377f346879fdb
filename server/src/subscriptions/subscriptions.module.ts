import { Module } from '@nestjs/common';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { SubscriptionDeliveriesRepository } from './subscription-deliveries.repository';
import { SubscriptionDispatcher } from './subscription-dispatcher.service';
import { SubscriptionKey } from './subscription-key';
import { SubscriptionSender } from './subscription-sender';
import { SubscribersController, SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsListener } from './subscriptions.listener';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

/** Status page subscriptions: double opt-in by email or webhook, and the notices of incidents and maintenance. */
@Module({
  // The pages' unlock rule (PAGE_UNLOCK): a password page takes subscriptions only from who may read it.
  imports: [StatusPagesModule],
  controllers: [SubscriptionsController, SubscribersController],
  providers: [
    SubscriptionsService,
    SubscriptionsRepository,
    SubscriptionDeliveriesRepository,
    SubscriptionKey,
    SubscriptionSender,
    SubscriptionDispatcher,
    SubscriptionsListener,
  ],
})
export class SubscriptionsModule {}
