import { Global, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DomainEvents } from './domain-events.service';
import { TransactionHooks } from './transaction-hooks';

@Global()
@Module({
  imports: [EventEmitterModule.forRoot()],
  providers: [DomainEvents, TransactionHooks],
  exports: [DomainEvents, TransactionHooks],
})
export class EventsModule {}
