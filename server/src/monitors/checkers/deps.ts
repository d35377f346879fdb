import type { OutboundGuards } from '../../common/outbound';
import type { AppConfig } from '../../config/config';
import type { Sql } from '../../database/rows';

/** What checkers are built from. */
export interface CheckerDeps {
  config: AppConfig;
  outbound: OutboundGuards;
  /** What checks that judge Vigil's own records read (container: its agent's last report); absent in single-checker tests. */
  database?: Sql;
}
