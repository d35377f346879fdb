import { Injectable } from '@nestjs/common';
import type { KumaImportPhase } from '@vigil/proto';

/** How long a finished job's last state stays readable. */
const KEEP_MS = 10 * 60_000;
const JOBS_MAX = 100;

/**
 * Where each import sent with a job id stands, in this instance's memory: the upload's request is served here, so
 * the client asks this instance (one import runs at a time; entries go after ten minutes).
 */
@Injectable()
export class KumaJobs {
  private readonly jobs = new Map<string, { phase: KumaImportPhase; percent: number; at: number }>();

  set(id: string, phase: KumaImportPhase, percent: number): void {
    const now = Date.now();
    for (const [key, job] of this.jobs) if (now - job.at > KEEP_MS || this.jobs.size >= JOBS_MAX) this.jobs.delete(key);
    this.jobs.set(id, { phase, percent, at: now });
  }

  get(id: string): { phase: KumaImportPhase; percent: number } | undefined {
    const job = this.jobs.get(id);
    return job && Date.now() - job.at <= KEEP_MS ? { phase: job.phase, percent: job.percent } : undefined;
  }
}
