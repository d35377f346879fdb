import { HttpStatus, Injectable } from '@nestjs/common';
import { MESSAGES, type DependencyRef, type MessageCode } from '@vigil/proto';
import { ApiException } from '../../common/api-exception';
import type { Sql } from '../../database/rows';
import { DependenciesRepository } from './dependencies.repository';
import { findCycle, refKey } from './dependency-graph';

/** A 400 about the `dependsOn` field. */
const refused = (code: MessageCode, message: string = MESSAGES[code]) =>
  new ApiException(HttpStatus.BAD_REQUEST, code, message, undefined, 'dependsOn');

/** The rules a new `dependsOn` list must keep, for monitors and agents alike. */
@Injectable()
export class DependenciesService {
  constructor(private readonly dependencies: DependenciesRepository) {}

  /**
   * Refuses (400 naming `dependsOn`) a list that names the item itself, an id that does not exist, or closes a cycle
   * through monitors and agents ("dependsOn would make a cycle: a → b → a"). `self` is null for an item not yet
   * stored, which nothing can depend on. Run it in the saving transaction (`db`) so the graph it reads is current.
   */
  async assertValid(self: { ref: DependencyRef; name: string } | null, dependsOn: DependencyRef[], db?: Sql): Promise<void> {
    if (!dependsOn.length) return;
    if (self && dependsOn.some((ref) => refKey(ref) === refKey(self.ref))) throw refused('dependencies.self');
    const found = new Set((await this.dependencies.existing(dependsOn, db)).map(refKey));
    if (dependsOn.some((ref) => !found.has(refKey(ref)))) throw refused('dependencies.notFound');
    if (!self) return;
    const cycle = findCycle(await this.dependencies.graph(db), { ...self, dependsOn });
    if (cycle) throw refused('dependencies.cycle', `${MESSAGES['dependencies.cycle']}: ${cycle.join(' → ')}`);
  }
}
