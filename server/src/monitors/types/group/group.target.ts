import type { TargetBuilder } from '../check-target';

/** Never scheduled: a group's status follows its members; its target only names it. */
export const groupTarget: TargetBuilder<'group'> = (_row, base) => ({ ...base, type: 'group' });
