import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { MONITOR_TYPE_DEFAULTS } from '@vigil/proto';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { ProbeResult } from './checkers/checker';
import { HttpChecker as Checker } from './checkers/http.checker';
import type { MonitorTarget } from './monitor.types';

// Transitional (issue 16): the schedulers, the module and the metrics still reach the HTTP checker here until the
// checker registry replaces this file; it only adapts their monitor rows to the http target.
export type CheckResult = Omit<ProbeResult, 'observed'>;

@Injectable()
export class HttpChecker extends Checker implements OnModuleDestroy {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config);
  }

  override check(monitor: MonitorTarget): Promise<ProbeResult> {
    return super.check({ type: 'http', assertions: [], ignoreTls: false, maxRedirects: MONITOR_TYPE_DEFAULTS.maxRedirects, ...monitor });
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}
