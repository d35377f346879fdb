import type { Checker, ProbeResult } from '../../checkers/checker';

/**
 * A group reaches nothing and is never scheduled (the schedulers and the check routes leave groups out): its status is
 * derived from its members' in the transaction that stores theirs (monitors/groups). Registered so the registry
 * stays total over the types; a check that still reached it fails rather than inventing a status.
 */
export class GroupChecker implements Checker<'group'> {
  readonly type = 'group' as const;

  endpoint(): null {
    return null;
  }

  async check(): Promise<ProbeResult> {
    return {
      ok: false,
      statusCode: null,
      responseTime: null,
      error: 'A group is not checked: its status follows its members',
      checkedAt: new Date(),
      observed: {},
    };
  }
}
