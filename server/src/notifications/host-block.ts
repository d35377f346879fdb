import type { ContainerState, HostChange, HostContextDto, HostFigures } from '@vigil/proto';
import type { MessageVars } from './messages';
import type { NotificationMessage } from './providers';
import type { Language, Localized } from './templates';

/**
 * Issue 32, requirement 9: a monitor's down alert tells the state of the host it runs on (its `host_agent_id`), read
 * from the database as the alert is built, so the first message already points at a cause. The variables `host`
 * (the whole block), `host_name`, `host_figures` and `host_changes` fill custom templates.
 */
export function hostVars(host: HostContextDto, at: Date): MessageVars {
  const figures = both((language) => figuresText(host.figures, language));
  const changes = host.changes.length ? both((language) => changesText(host, at, language)) : null;
  const block = both((language) => {
    const first = headline(host, at, language) + figures[language];
    return changes ? `${first}\n${CHANGES_LABEL[language]}${changes[language]}` : first;
  });
  return { host: block, host_name: host.agent.name, host_figures: figures, host_changes: changes };
}

/** The block is added below the default text, unless a custom text places the host variables itself. */
export function withHost(message: NotificationMessage, vars: MessageVars, language: Language, custom?: string): NotificationMessage {
  const block = vars.host as Localized | undefined;
  if (!block || (custom && /\{\{\s*host/.test(custom))) return message;
  return { ...message, text: `${message.text}\n${block[language]}` };
}

const both = (text: (language: Language) => string): Localized => ({ 'en-US': text('en-US'), 'zh-CN': text('zh-CN') });

const CHANGES_LABEL: Localized = { 'en-US': 'Host changes: ', 'zh-CN': '主机变化：' };

function headline(host: HostContextDto, at: Date, language: Language): string {
  const name = host.agent.name;
  if (host.offline_since === null) return language === 'zh-CN' ? `主机 ${name}：` : `Host ${name}: `;
  const since = ago(host.offline_since, at, language);
  const reported = host.reported_at ? ago(host.reported_at, at, language) : null;
  if (language === 'zh-CN') return `主机 ${name} 已离线（${since}）；最后数据${reported ? `（${reported}）` : ''}：`;
  return `Host ${name} went offline ${since}; last figures${reported ? ` (${reported})` : ''}: `;
}

function figuresText(figures: HostFigures, language: Language): string {
  const zh = language === 'zh-CN';
  const parts = [
    figures.cpu !== null ? `CPU ${figures.cpu}%` : null,
    figures.memory !== null ? `${zh ? '内存' : 'memory'} ${figures.memory}%` : null,
    figures.swap !== null ? `${zh ? '交换' : 'swap'} ${figures.swap}%` : null,
    figures.disk ? `${zh ? '磁盘' : 'disk'} ${figures.disk.mount} ${figures.disk.percent}%` : null,
    figures.load ? `${zh ? '负载' : 'load'} ${figures.load.join(' ')}` : null,
  ].filter((part): part is string => part !== null);
  if (!parts.length) return zh ? '尚未上报数据' : 'no figures reported';
  return parts.join(zh ? '，' : ', ');
}

function changesText(host: HostContextDto, at: Date, language: Language): string {
  const zh = language === 'zh-CN';
  const told = host.changes.map((change) => changeText(change, at, language));
  const more = host.more_changes > 0 ? (zh ? ` 等，另有 ${host.more_changes} 项` : ` … and ${host.more_changes} more`) : '';
  return told.join(zh ? '；' : '; ') + more;
}

function changeText(change: HostChange, at: Date, language: Language): string {
  const zh = language === 'zh-CN';
  const when = (since: string | null, recovered = false) => {
    if (since === null) return '';
    const text = ago(since, at, language);
    if (zh) return `（${text}${recovered ? '，已恢复' : ''}）`;
    return ` ${text}${recovered ? ' (recovered)' : ''}`;
  };
  switch (change.kind) {
    case 'container': {
      const state = change.state === 'running' ? UNHEALTHY[language] : CONTAINER_STATES[change.state][language];
      return `${zh ? '容器' : 'container'} ${change.name} ${state}${when(change.since)}`;
    }
    case 'service':
      // Only failed units are told (HostContextRepository).
      return `${change.name} ${zh ? '失败' : 'failed'}${when(change.since)}`;
    case 'alert': {
      const words = ALERT_WORDS[change.metric]?.[language] ?? (zh ? `${change.metric} 告警` : `${change.metric} alert`);
      const item = change.item ? (zh ? `（${change.item}）` : ` (${change.item})`) : '';
      return `${words}${item}${when(change.opened_at, change.closed_at !== null)}`;
    }
  }
}

/** `3 min ago`, `刚刚`: how long before the alert's time. */
export function ago(iso: string, at: Date, language: Language): string {
  const minutes = Math.max(0, Math.floor((at.getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 1) return language === 'zh-CN' ? '刚刚' : 'just now';
  if (minutes < 120) return language === 'zh-CN' ? `${minutes} 分钟前` : `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return language === 'zh-CN' ? `${hours} 小时前` : `${hours} h ago`;
}

const UNHEALTHY: Localized = { 'en-US': 'unhealthy', 'zh-CN': '不健康' };

const CONTAINER_STATES: Record<ContainerState, Localized> = {
  created: { 'en-US': 'created, not started', 'zh-CN': '已创建未启动' },
  running: { 'en-US': 'running', 'zh-CN': '运行中' },
  paused: { 'en-US': 'paused', 'zh-CN': '已暂停' },
  restarting: { 'en-US': 'restarting', 'zh-CN': '正在重启' },
  removing: { 'en-US': 'being removed', 'zh-CN': '正在删除' },
  exited: { 'en-US': 'exited', 'zh-CN': '已退出' },
  dead: { 'en-US': 'dead', 'zh-CN': '已停止' },
};

/** Host alerts by metric; a metric not named here (a newer rule) is told by its name. */
const ALERT_WORDS: Record<string, Localized> = {
  cpu: { 'en-US': 'CPU high', 'zh-CN': 'CPU 过高' },
  memory: { 'en-US': 'memory high', 'zh-CN': '内存过高' },
  disk: { 'en-US': 'disk full', 'zh-CN': '磁盘将满' },
  load: { 'en-US': 'load high', 'zh-CN': '负载过高' },
  temperature: { 'en-US': 'temperature high', 'zh-CN': '温度过高' },
  diskIo: { 'en-US': 'disk I/O busy', 'zh-CN': '磁盘 I/O 繁忙' },
  bandwidth: { 'en-US': 'bandwidth high', 'zh-CN': '带宽过高' },
  containerDown: { 'en-US': 'container down', 'zh-CN': '容器停止' },
  containerUnhealthy: { 'en-US': 'container unhealthy', 'zh-CN': '容器不健康' },
  serviceFailed: { 'en-US': 'service failed', 'zh-CN': '服务失败' },
};
