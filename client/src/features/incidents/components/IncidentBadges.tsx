import { Badge, type BadgeProps } from '@mantine/core';
import type { IncidentImpact, IncidentStatus } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { IMPACT_COLORS, INCIDENT_STATUS_COLORS } from '../form';

export function ImpactBadge({ impact, ...props }: { impact: IncidentImpact } & BadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={IMPACT_COLORS[impact]} data-impact={impact} {...props}>
      {t(`incidents.impacts.${impact}`)}
    </Badge>
  );
}

export function IncidentStatusBadge({ status, ...props }: { status: IncidentStatus } & BadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={INCIDENT_STATUS_COLORS[status]} data-status={status} {...props}>
      {t(`incidents.statuses.${status}`)}
    </Badge>
  );
}
