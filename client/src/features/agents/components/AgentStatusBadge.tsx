import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { detailStatus, listStatus, shownAgentStatus, STATUS_COLORS } from '../format';

interface AgentStatusBadgeProps extends Omit<BadgeProps, 'color'> {
  status: string;
  /**
   * `list`: online, connecting or offline (spec section 4); `detail`: online only when active, else offline
   * (spec section 2). `data-status` carries the value shown.
   */
  mode?: 'list' | 'detail';
  /** Offline while a dependency is down (AgentDto.unreachable): shown as unreachable instead of offline. */
  unreachable?: boolean;
  testId?: string;
}

export function AgentStatusBadge({ status, mode = 'list', unreachable, testId, ...props }: AgentStatusBadgeProps) {
  const { t } = useTranslation();
  const shown = shownAgentStatus(mode === 'detail' ? detailStatus(status) : listStatus(status), unreachable);
  return (
    <Badge variant="light" color={STATUS_COLORS[shown]} data-testid={testId} data-status={shown} {...props}>
      {t(`agent.status.${shown}`)}
    </Badge>
  );
}
