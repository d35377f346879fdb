/**
 * Monitors as code: `plan` and `apply` of a configuration document (proto/src/config-document.ts).
 *
 * Contract (the Uptime Kuma importer builds on it):
 * - `plan(doc, { prune })` checks the document (schema, duplicate keys, references, secrets a new item lacks) and
 *   answers what `apply` would do; it writes nothing. A bad document is a `DocumentInvalid` (400) listing each path.
 * - `apply(doc, { prune, extras })` carries the plan out in ONE database transaction (`sharedTransaction`): every
 *   service call joins it, so a failure anywhere (the last item included) leaves nothing. Items are written through
 *   the same services and DTO validation as the REST API (`saver` admin). Monitors are matched by `key`, so they keep
 *   their ids and history. `extras(manager, ids)` runs last inside the same transaction with the ids of every keyed
 *   row (after the writes) for rows the document has no place for (history, incidents); its failure rolls all back.
 *   Events, schedules and pushes happen after the commit only.
 * - Semantics: a field left out keeps its value (a new item takes the API's default); a secret left as `${NAME}`
 *   keeps the stored one and is refused for a new item; `prune` deletes only within the sections the document lists.
 */
import { Injectable } from '@nestjs/common';
import type { ApplyPlan, ConfigDocument } from '@vigil/proto';
import { DataSource, EntityManager } from 'typeorm';
import { sharedTransaction } from '../database/shared-transaction';
import { ConfigKeysRepository, KeyedIds } from './config-keys.repository';
import { ConfigReader, CurrentConfig } from './config-reader';
import { ConfigWriter } from './config-writer';
import { DocumentInvalid, schemaProblems } from './document-schema';
import { documentProblems, planDocument } from './plan';

export interface ApplyOptions {
  prune?: boolean;
  /** Runs last in the apply's transaction (the importer's own rows). */
  extras?: (manager: EntityManager, ids: KeyedIds) => Promise<void>;
}

@Injectable()
export class ApplyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: ConfigReader,
    private readonly writer: ConfigWriter,
    private readonly keys: ConfigKeysRepository,
  ) {}

  async plan(doc: ConfigDocument, options: { prune?: boolean } = {}): Promise<ApplyPlan> {
    return this.checked(doc, await this.reader.read(), options.prune ?? false);
  }

  async apply(doc: ConfigDocument, options: ApplyOptions = {}): Promise<ApplyPlan> {
    return sharedTransaction(this.dataSource, async (manager) => {
      const current = await this.reader.read();
      const plan = this.checked(doc, current, options.prune ?? false);
      await this.writer.write(doc, current, plan);
      if (options.extras) await options.extras(manager, await this.keys.read(manager));
      return plan;
    });
  }

  private checked(doc: ConfigDocument, current: CurrentConfig, prune: boolean): ApplyPlan {
    const schema = schemaProblems(doc);
    if (schema.length) throw new DocumentInvalid(schema);
    const problems = documentProblems(current.document, doc, new Set(current.ids.agents.keys()));
    if (problems.length) throw new DocumentInvalid(problems);
    return planDocument(current.document, doc, prune);
  }
}
