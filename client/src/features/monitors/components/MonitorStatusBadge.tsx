import { Badge, type BadgeProps } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { displayStatus, STATUS_COLORS } from '../format';

interface MonitorStatusBadgeProps extends Omit<BadgeProps, 'color'> {
  monitor: Pick<MonitorDto, 'active' | 'status'>;
  testId?: string;
}

/** Up green, down red, pending amber, paused grey (spec section 4); `data-status` carries the same value. */
export function MonitorStatusBadge({ monitor, testId, ...props }: MonitorStatusBadgeProps) {
  const { t } = useTranslation();
  const status = displayStatus(monitor);
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} data-testid={testId} data-status={status} {...props}>
      {t(`monitor.status.${status}`)}
    </Badge>
  );
}
