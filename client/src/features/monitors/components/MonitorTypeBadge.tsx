import { Badge, type BadgeProps } from '@mantine/core';
import type { MonitorType } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { TYPE_ICONS } from '../types/meta';

/** A small badge with the type's icon and short name (`TCP`, `DNS`, `Push`). */
export function MonitorTypeBadge({ type, testId, ...props }: { type: MonitorType; testId?: string } & Omit<BadgeProps, 'children'>) {
  const { t } = useTranslation();
  const Icon = TYPE_ICONS[type];
  return (
    <Badge
      variant="default"
      radius="sm"
      leftSection={<Icon size={12} aria-hidden />}
      data-testid={testId}
      data-type={type}
      title={t(`monitor.type.names.${type}`)}
      {...props}
    >
      {t(`monitor.type.short.${type}`)}
    </Badge>
  );
}
