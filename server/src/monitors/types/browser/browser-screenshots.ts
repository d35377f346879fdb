import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryRow } from '../../../database/rows';
import { CheckPipeline } from '../../check-pipeline';
import type { ScreenshotSink } from './browser.checker';

export interface MonitorScreenshot {
  png: Buffer;
  /** The failure it shows, as the check history names it. */
  error: string;
  takenAt: Date;
}

/** The screenshot of each browser monitor's last failed check (`monitor_screenshots`), kept by the browser checker. */
@Injectable()
export class BrowserScreenshots implements ScreenshotSink, OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pipeline: CheckPipeline,
  ) {}

  onModuleInit(): void {
    this.pipeline.checkers.browser.keepScreenshots(this);
  }

  /** Replaces the monitor's screenshot; a monitor deleted meanwhile keeps none (its row would have no monitor). */
  async keep(monitorId: number, shot: MonitorScreenshot): Promise<void> {
    await execute(
      this.dataSource,
      `INSERT INTO monitor_screenshots (monitor_id, png, error, taken_at)
       SELECT id, $2, $3, $4 FROM monitors WHERE id = $1
       ON CONFLICT (monitor_id) DO UPDATE SET png = EXCLUDED.png, error = EXCLUDED.error, taken_at = EXCLUDED.taken_at`,
      [monitorId, shot.png, shot.error.slice(0, 1000), shot.takenAt],
    );
  }

  async last(monitorId: number): Promise<MonitorScreenshot | null> {
    const row = await queryRow<{ png: Buffer; error: string; taken_at: Date }>(
      this.dataSource,
      `SELECT png, error, taken_at FROM monitor_screenshots WHERE monitor_id = $1`,
      [monitorId],
    );
    return row ? { png: Buffer.from(row.png), error: row.error, takenAt: new Date(row.taken_at) } : null;
  }
}
