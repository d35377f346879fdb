import { Badge, type BadgeProps } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { displayStatus, STATUS_COLORS } from '../format';

interface MonitorStatusBadgeProps extends Omit<BadgeProps, 'color'> {
  monitor: Pick<MonitorDto, 'active' | 'status'> & { flapping?: boolean };
  testId?: string;
}

/**
 * The status in its colour (STATUS_COLORS; paused grey, spec section 4), `data-status` carrying the same value, and a
 * small "flapping" badge beside it while the monitor keeps changing state (paused monitors do not flap).
 */
export function MonitorStatusBadge({ monitor, testId, ...props }: MonitorStatusBadgeProps) {
  const { t } = useTranslation();
  const status = displayStatus(monitor);
  return (
    <>
      <Badge variant="light" color={STATUS_COLORS[status]} data-testid={testId} data-status={status} {...props}>
        {t(`monitor.status.${status}`)}
      </Badge>
      {monitor.flapping && status !== 'paused' && <FlappingBadge testId={testId && `${testId}-flapping`} />}
    </>
  );
}

/** Marks a monitor whose state changes too often: one message when it starts and one when it settles. */
export function FlappingBadge({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color="orange" size="xs" title={t('monitor.flappingHint')} data-testid={testId}>
      {t('monitor.flapping')}
    </Badge>
  );
}
