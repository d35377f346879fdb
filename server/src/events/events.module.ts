import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DomainEvents } from './domain-events.service';
import { EventListeners } from './event-listeners';
import { ServerEvents } from './server-events';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [DomainEvents, EventListeners, ServerEvents],
  exports: [DomainEvents],
})
export class EventsModule {}
