import type { AlertDto } from '@vigil/proto';
import type { TFunction } from 'i18next';

/** What an alert is about, naming its container or unit when it has one ("Container down: web"). */
export function metricLabel(t: TFunction, alert: Pick<AlertDto, 'metric' | 'item'>): string {
  const metric = t(`alerts.metrics.${alert.metric}`);
  return alert.item ? t('alerts.metricItem', { metric, item: alert.item }) : metric;
}
