/**
 * Import from Uptime Kuma: read the file (a worker thread for a database), map it to a configuration document, plan
 * it (dry run) or apply it in one transaction with incidents and history as the apply's extras. Idempotent: every
 * item has a key from its Kuma id, so a second run finds everything in place and creates nothing.
 */
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { ApplyPlan, ConfigDocument, KumaHistoryOption, KumaImportItem, KumaImportReport, KumaImportPhase } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import { ApiException } from '../common/api-exception';
import { ApplyService } from '../config-as-code/apply.service';
import type { KeyedIds } from '../config-as-code/config-keys.repository';
import { DocumentInvalid } from '../config-as-code/document-schema';
import { buildKumaImport, type KumaImport } from './kuma-document';
import { KumaFileError } from './kuma-file';
import { KumaImportRepository } from './kuma-import.repository';
import { KumaJobs } from './kuma-jobs';
import { mapMonitor } from './kuma-monitors';
import { monitorProblem } from './kuma-validation';
import { readKumaFile } from './read-kuma-file';

export interface KumaImportOptions {
  dryRun: boolean;
  history: KumaHistoryOption;
  jobId?: string;
}

const nameOf = (doc: ConfigDocument, kind: string, key: string): string => {
  const lists: Record<string, Array<{ key?: string; slug?: string; name?: string; title?: string }> | undefined> = {
    monitor: doc.monitors,
    channel: doc.channels,
    maintenance: doc.maintenance,
    statusPage: doc.statusPages,
  };
  const item = lists[kind]?.find((entry) => (entry.key ?? entry.slug) === key);
  return item?.name ?? item?.title ?? key;
};

/** A refusal the checks before could not foresee (a rule of the services) names the Kuma item, not a document path. */
function namedProblems(error: DocumentInvalid, doc: ConfigDocument): DocumentInvalid {
  const sections: Record<string, Array<{ name?: string; title?: string }> | undefined> = {
    monitors: doc.monitors,
    channels: doc.channels,
    maintenance: doc.maintenance,
    statusPages: doc.statusPages,
  };
  return new DocumentInvalid(
    error.problems.map(({ path, problem }) => {
      const match = /^(\w+)\[(\d+)\]/.exec(path);
      const item = match ? sections[match[1]]?.[Number(match[2])] : undefined;
      return { path: item ? `${path} (${item.name ?? item.title})` : path, problem };
    }),
  );
}

@Injectable()
export class KumaImportService {
  private readonly logger = new Logger(KumaImportService.name);
  /** One import at a time per instance: two would race for the same keys and double the memory. */
  private running = false;

  constructor(
    private readonly applier: ApplyService,
    private readonly repository: KumaImportRepository,
    private readonly jobs: KumaJobs,
  ) {}

  async run(bytes: Uint8Array, options: KumaImportOptions): Promise<KumaImportReport> {
    if (this.running) throw new ApiException(HttpStatus.CONFLICT, 'kumaImport.busy');
    this.running = true;
    const phase = (name: KumaImportPhase, percent: number) => options.jobId && this.jobs.set(options.jobId, name, percent);
    try {
      phase('reading', 10);
      const data = await readKumaFile(bytes, options.dryRun ? 'none' : options.history).catch((error: unknown) => {
        if (error instanceof KumaFileError) throw new ApiException(HttpStatus.BAD_REQUEST, `kumaImport.${error.problem}`);
        throw error;
      });
      phase('mapping', 40);
      const refused = new Map<number, string>();
      for (const row of data.monitors) {
        const monitor = mapMonitor(row).monitor;
        const problem = monitor ? await monitorProblem(monitor) : null;
        if (problem) refused.set(Number(row.id), problem);
      }
      const mapped = buildKumaImport(data, await this.repository.monitorNames(), refused);
      phase('planning', 60);
      // Only monitors this run creates get history: a re-run (or a monitor that already has checks) gets none.
      const plan = await this.applier.plan(mapped.document);
      const counts = { incidents: { created: 0, existing: 0 }, history: { monitors: 0, checks: 0, days: 0 } };
      if (!options.dryRun) {
        phase('applying', 80);
        const created = new Set(plan.entries.filter((e) => e.kind === 'monitor' && e.action === 'create').map((e) => e.key));
        await this.applier
          .apply(mapped.document, { extras: (manager, ids) => this.extras(manager, ids, mapped, created, counts) })
          .catch((error: unknown) => {
            throw error instanceof DocumentInvalid ? namedProblems(error, mapped.document) : error;
          });
      }
      const report = this.report(data.source, options.dryRun, mapped, plan, counts);
      phase('done', 100);
      this.logger.log(
        `Uptime Kuma import (${data.source}${options.dryRun ? ', dry run' : ''}): ${report.counts.create} to create, ` +
          `${report.counts.update} to update, ${report.skipped.length} skipped`,
      );
      return report;
    } catch (error) {
      phase('failed', 100);
      throw error;
    } finally {
      this.running = false;
    }
  }

  private async extras(
    manager: EntityManager,
    ids: KeyedIds,
    mapped: KumaImport,
    created: Set<string>,
    counts: Pick<KumaImportReport, 'incidents' | 'history'>,
  ): Promise<void> {
    for (const incident of mapped.incidents) {
      const pageId = ids.statusPages.get(incident.pageSlug);
      if (pageId === undefined) continue;
      if (await this.repository.insertIncident(manager, incident, pageId)) counts.incidents.created += 1;
      else counts.incidents.existing += 1;
    }
    const monitorIds = new Map<number, number>();
    for (const [kumaId, key] of mapped.monitorKeys) {
      const id = ids.monitors.get(key);
      if (id !== undefined && created.has(key)) monitorIds.set(kumaId, id);
    }
    if (monitorIds.size === 0) return;
    counts.history.checks = await this.repository.insertHeartbeats(manager, mapped.history.heartbeats, monitorIds);
    counts.history.days = await this.repository.insertDays(manager, mapped.history.statDaily, monitorIds);
    const withHistory = new Set([...mapped.history.heartbeats, ...mapped.history.statDaily].map((row) => Number(row.monitor_id)));
    counts.history.monitors = [...monitorIds.keys()].filter((id) => withHistory.has(id)).length;
  }

  private report(
    source: KumaImportReport['source'],
    dryRun: boolean,
    mapped: KumaImport,
    plan: ApplyPlan,
    counts: Pick<KumaImportReport, 'incidents' | 'history'>,
  ): KumaImportReport {
    const items: KumaImportItem[] = plan.entries.map((entry) => ({
      kind: entry.kind,
      key: entry.key,
      name: nameOf(mapped.document, entry.kind, entry.key),
      action: entry.action,
      ...(entry.fields ? { fields: entry.fields } : {}),
    }));
    return { source, dryRun, items, counts: plan.counts, skipped: mapped.skipped, notes: mapped.notes, ...counts };
  }
}
