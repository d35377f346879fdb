import type { OutboundGuards } from '../../common/outbound';
import type { AppConfig } from '../../config/config';

/** What checkers are built from. */
export interface CheckerDeps {
  config: AppConfig;
  outbound: OutboundGuards;
}
