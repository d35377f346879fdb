import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 5;

/**
 * How long the event loop was kept from running its timers: one request or job hogging the thread shows here
 * (the budget is about 20 ms). Windowed per read, so a scrape reports the worst stall since the previous scrape.
 */
@Injectable()
export class EventLoopDelay implements OnModuleDestroy {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  constructor() {
    this.histogram.enable();
  }

  /**
   * p99 and max of the window in milliseconds; then a new window starts. The histogram records whole timer
   * intervals, so the resolution is taken off to leave the delay itself.
   */
  readAndReset(): { p99Ms: number; maxMs: number } {
    const delay = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS);
    const window = { p99Ms: delay(this.histogram.percentile(99)), maxMs: delay(this.histogram.max) };
    this.histogram.reset();
    return window;
  }

  onModuleDestroy(): void {
    this.histogram.disable();
  }
}
