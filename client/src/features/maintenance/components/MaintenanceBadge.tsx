import { Badge, type BadgeProps } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '../../monitors/format';

/** Beside an agent's online/offline status while a maintenance window covers it (agents keep their status). */
export function MaintenanceBadge({ testId, ...props }: { testId?: string } & Omit<BadgeProps, 'color'>) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS.maintenance} leftSection={<IconTool size={12} />} data-testid={testId} {...props}>
      {t('monitor.status.maintenance')}
    </Badge>
  );
}
