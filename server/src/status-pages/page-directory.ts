import { Injectable } from '@nestjs/common';
import { PageKey, StatusPagesRepository } from './status-pages.repository';

interface Directory {
  bySlug: Map<string, PageKey>;
  byDomain: Map<string, PageKey>;
  byId: Map<number, PageKey>;
  /** Component key (`m12`, `a3`) → the pages showing it. */
  pagesOf: Map<string, number[]>;
}

/**
 * Every page's slug, domain and password, and which pages show each monitor and agent, held in memory on every
 * instance: the custom-domain routing, the password checks and the check pipeline ask it on every request or check,
 * and it changes only when a page is saved or a monitor or agent deleted (then every instance drops it; see
 * `StatusPageProjections.invalidate`). Read again in two queries on the next use.
 */
@Injectable()
export class PageDirectory {
  private directory: Directory | null = null;
  private loading: Promise<Directory> | null = null;
  private generation = 0;

  constructor(private readonly pages: StatusPagesRepository) {}

  async bySlug(slug: string): Promise<PageKey | null> {
    return (await this.read()).bySlug.get(slug) ?? null;
  }

  async byId(id: number): Promise<PageKey | null> {
    return (await this.read()).byId.get(id) ?? null;
  }

  /** The page served at `/` of this host name (lowercase, no port), if one claims it. */
  async byDomain(host: string): Promise<PageKey | null> {
    return (await this.read()).byDomain.get(host) ?? null;
  }

  /** Ids of the pages that show this component. */
  async pagesOf(key: string): Promise<number[]> {
    return (await this.read()).pagesOf.get(key) ?? [];
  }

  invalidate(): void {
    this.generation += 1;
    this.directory = null;
  }

  private async read(): Promise<Directory> {
    if (this.directory) return this.directory;
    if (!this.loading) {
      const generation = this.generation;
      this.loading = this.load()
        .then((directory) => {
          if (generation === this.generation) this.directory = directory;
          return directory;
        })
        .finally(() => (this.loading = null));
    }
    return this.loading;
  }

  private async load(): Promise<Directory> {
    const [keys, memberships] = await Promise.all([this.pages.keys(), this.pages.memberships()]);
    const pagesOf = new Map<string, number[]>();
    for (const row of memberships) {
      const key = row.monitor_id !== null ? `m${row.monitor_id}` : `a${row.agent_id}`;
      const list = pagesOf.get(key);
      if (list) list.push(row.page_id);
      else pagesOf.set(key, [row.page_id]);
    }
    return {
      bySlug: new Map(keys.map((key) => [key.slug, key])),
      byId: new Map(keys.map((key) => [key.id, key])),
      byDomain: new Map(keys.filter((key) => key.domain).map((key) => [key.domain!, key])),
      pagesOf,
    };
  }
}
