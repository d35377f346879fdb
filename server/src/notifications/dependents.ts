import type { Dependent } from './alert-records.repository';
import type { Language } from './templates';

/** Dependents named in one message; the rest are counted. */
export const DEPENDENTS_NAMED = 10;

/** `— 14 dependents unreachable` (or `affected` on the recovery): the subject's summary. */
export function dependentsSubject(count: number, recovering: boolean, language: Language): string {
  if (language === 'zh-CN') return recovering ? `— ${count} 个依赖项随之恢复` : `— ${count} 个依赖项不可达`;
  const noun = count === 1 ? 'dependent' : 'dependents';
  return recovering ? `— ${count} ${noun} reachable again` : `— ${count} ${noun} unreachable`;
}

/** The line naming the first DEPENDENTS_NAMED dependents by name, and how many more there are. */
export function dependentsLine(send: { dependents?: Dependent[]; event: string }, language: Language): string {
  const all = send.dependents ?? [];
  const names = all.slice(0, DEPENDENTS_NAMED).map((d) => d.name);
  const more = all.length - names.length;
  const recovering = send.event.endsWith('recovery');
  if (language === 'zh-CN') {
    const label = recovering ? '依赖它的监控和服务器' : '依赖它的监控和服务器（期间显示为不可达，不单独通知）';
    return `${label}（${all.length} 个）：${names.join('、')}${more > 0 ? ` 等，另有 ${more} 个` : ''}`;
  }
  const label = recovering ? 'Dependents' : 'Dependents (shown unreachable meanwhile, not alerted on their own)';
  return `${label} (${all.length}): ${names.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`;
}
