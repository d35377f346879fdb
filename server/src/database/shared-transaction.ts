import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/** Work a shared transaction holds back until it commits (dropped when it rolls back). */
type AfterCommit = () => unknown;

interface Shared {
  manager: EntityManager;
  afterCommit: AfterCommit[];
  /** Set once the transaction ends: a timer started inside it then reaches the database on its own again. */
  closed: boolean;
}

const current = new AsyncLocalStorage<Shared>();
const joinable = new WeakSet<DataSource>();

const openShared = (): Shared | null => {
  const shared = current.getStore();
  return shared && !shared.closed ? shared : null;
};

/**
 * Runs `work` in one transaction that everything it calls joins: the DataSource's `query` and `transaction` run on
 * the shared manager while it is open (repositories, `AuditLog.transaction`, `DomainEvents.transaction`), so many
 * service calls commit together or not at all (a configuration document's apply) and each sees the others' writes.
 * Events emitted inside and work passed to `afterCommit` wait for the commit and are dropped on a rollback.
 */
export async function sharedTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  joinShared(dataSource);
  const afterCommit: AfterCommit[] = [];
  const opened: { shared?: Shared } = {};
  let value: T;
  try {
    value = await dataSource.transaction((manager) => {
      opened.shared = { manager, afterCommit, closed: false };
      return current.run(opened.shared, () => work(manager));
    });
  } finally {
    if (opened.shared) opened.shared.closed = true;
  }
  for (const task of afterCommit) await task();
  return value;
}

/** Runs `task` now, or after the shared transaction around the caller commits. */
export function whenCommitted(task: AfterCommit): void {
  const shared = openShared();
  if (shared) shared.afterCommit.push(task);
  else void task();
}

/** Awaits `task` now, or queues it for after the shared transaction around the caller commits. */
export async function afterCommit(task: () => Promise<unknown>): Promise<void> {
  const shared = openShared();
  if (shared) shared.afterCommit.push(task);
  else await task();
}

/** Makes `dataSource` route statements and nested transactions to the shared transaction open around the caller. */
function joinShared(dataSource: DataSource): void {
  if (joinable.has(dataSource)) return;
  joinable.add(dataSource);
  const query = dataSource.query.bind(dataSource);
  const transaction = dataSource.transaction.bind(dataSource) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(dataSource, {
    // A manager's own statements come with its query runner: only a statement without one joins the shared transaction.
    query: (sql: string, parameters?: unknown[], runner?: unknown) => {
      const shared = runner ? null : openShared();
      return shared ? shared.manager.query(sql, parameters) : query(sql, parameters, runner as never);
    },
    transaction: (...args: unknown[]) => {
      const shared = openShared();
      const work = args[args.length - 1] as (manager: EntityManager) => Promise<unknown>;
      return shared ? work(shared.manager) : transaction(...args);
    },
  });
}
