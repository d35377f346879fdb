import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobClaims } from '../database/job-claims';
import { execute, queryRow } from '../database/rows';
import { BAR_DAYS, dayDate, epochDay } from './page-bars';

const ROLL_EVERY_MS = 10 * 60_000;
const FULL_ROLL_EVERY_MS = 24 * 3_600_000;
/** Soon after start, so an upgraded install gets its days rolled up without waiting a period. */
const FIRST_ROLL_MS = 15_000;
const STATE_KEY = 'monitor_daily';
/** Days kept: the longest range a page or badge shows, and a spare. */
const KEEP_DAYS = BAR_DAYS + 1;

/** The days `monitor_daily` holds in full: `[from, until)`, as epoch days. */
export interface RolledDays {
  from: number;
  until: number;
}

/**
 * Rolls `monitor_hourly` up into `monitor_daily` for the UTC days that are over, one statement per day (a day of
 * 10,000 monitors is 240,000 hourly rows), once per period across instances (JobClaims). Each run also recomputes the
 * last day it rolled, which late-stored checks may still reach; days are recomputed from the hours, never added to,
 * so a run repeated by another instance changes nothing. What it holds is published in `settings` only once it is
 * written, so a page never reads a day half rolled up.
 */
@Injectable()
export class MonitorDaily implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MonitorDaily.name);
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly claims: JobClaims,
  ) {}

  onApplicationBootstrap(): void {
    const run = () => void this.claims.run('rollup.monitor_daily', ROLL_EVERY_MS, () => this.roll());
    // Once a day every kept day again: hours written into past days later (an import) reach the roll-up too.
    const full = () => void this.claims.run('rollup.monitor_daily.full', FULL_ROLL_EVERY_MS, () => this.roll(Date.now(), true));
    this.timers = [setTimeout(run, FIRST_ROLL_MS), setInterval(run, ROLL_EVERY_MS), setInterval(full, FULL_ROLL_EVERY_MS)];
    for (const timer of this.timers) timer.unref();
  }

  onModuleDestroy(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** The days rolled up so far; null before the first run. */
  async rolled(): Promise<RolledDays | null> {
    const row = await queryRow<{ value: { from: string; until: string } }>(this.dataSource, `SELECT value FROM settings WHERE key = $1`, [
      STATE_KEY,
    ]);
    if (!row) return null;
    return { from: epochDay(Date.parse(row.value.from)), until: epochDay(Date.parse(row.value.until)) };
  }

  /** Rolls up every day over within the kept range that is not held yet (`full`: every one), and the last one held again. */
  async roll(nowMs = Date.now(), full = false): Promise<RolledDays> {
    const today = epochDay(nowMs);
    const from = today - KEEP_DAYS;
    const held = await this.rolled();
    let rolled = 0;
    for (let day = from; day < today; day += 1) {
      if (!full && held && day >= held.from && day < held.until - 1) continue;
      await execute(
        this.dataSource,
        `INSERT INTO monitor_daily (monitor_id, day, checks, up)
         SELECT monitor_id, $1::date, sum(checks), sum(up) FROM monitor_hourly
         WHERE hour >= $1::date::timestamp AT TIME ZONE 'UTC' AND hour < ($1::date + 1)::timestamp AT TIME ZONE 'UTC'
         GROUP BY monitor_id
         ON CONFLICT (monitor_id, day) DO UPDATE SET checks = excluded.checks, up = excluded.up`,
        [dayDate(day)],
      );
      rolled += 1;
    }
    await execute(this.dataSource, `DELETE FROM monitor_daily WHERE day < $1::date`, [dayDate(from)]);
    const state = { from: dayDate(from), until: dayDate(today) };
    await execute(
      this.dataSource,
      `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [STATE_KEY, JSON.stringify(state)],
    );
    if (rolled > 1) this.logger.log(`Rolled up ${rolled} days of monitor checks for the status pages' bars`);
    return { from, until: today };
  }
}
