import { Injectable } from '@nestjs/common';
import { IncidentsService } from '../incidents/incidents.service';
import { MaintenanceService } from '../maintenance/maintenance.service';
import type { PageStories } from './page-projection';

/**
 * What a page tells besides its components: its incidents (open, and resolved within its range) and its maintenance
 * windows (active, then scheduled), with the day marks of both for the bars' tooltips. Each comes from its own service.
 */
@Injectable()
export class PageStoriesSource {
  constructor(
    private readonly incidents: IncidentsService,
    private readonly maintenance: MaintenanceService,
  ) {}

  /** `components`: the page's component keys (`m12`, `a3`) → names, so neither names a component the page hides. */
  async forPage(pageId: number, days: number, components: Map<string, string>): Promise<PageStories> {
    const [incidents, maintenance] = await Promise.all([
      this.incidents.forPage(pageId, days, components),
      this.maintenance.forPage(pageId, days, components),
    ]);
    const marks = [...incidents.marks, ...maintenance.marks].sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind));
    return { incidents: incidents.active, history: incidents.history, maintenance: maintenance.windows, marks };
  }
}
