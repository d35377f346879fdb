import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DomainEvents } from './domain-events.service';
import { EVENT_LISTENERS, ListenerDeclaration } from './on-event.decorator';

/** Registers the methods of one object marked `@OnEvent` with the bus. */
export function registerListeners(events: DomainEvents, instance: object, scanner = new MetadataScanner()): void {
  const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
  for (const key of scanner.getAllMethodNames(prototype)) {
    const method = prototype[key] as (...args: unknown[]) => unknown;
    const declared: ListenerDeclaration[] = Reflect.getMetadata(EVENT_LISTENERS, method) ?? [];
    for (const { name, ...options } of declared) events.on(name, options, (...args) => method.apply(instance, args));
  }
}

/**
 * Registers every provider's `@OnEvent` methods. Runs at module init, after every provider exists and before any of
 * them starts work that raises events.
 */
@Injectable()
export class EventListeners implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly events: DomainEvents,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance && typeof instance === 'object' && wrapper.isDependencyTreeStatic())
        registerListeners(this.events, instance, this.scanner);
    }
  }
}
