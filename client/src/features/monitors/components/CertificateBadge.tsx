import { Badge, type BadgeProps } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { certificateColor } from '../types/meta';

interface CertificateBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  daysRemaining: number;
  /** The monitor's alert thresholds (`cert_expiry_days`); empty: the default. */
  thresholds: readonly number[];
  testId?: string;
}

/** The certificate's days remaining, red at or below the smallest alert threshold, orange up to the largest. */
export function CertificateBadge({ daysRemaining, thresholds, testId, ...props }: CertificateBadgeProps) {
  const { t } = useTranslation();
  const color = certificateColor(daysRemaining, thresholds);
  const days = Math.floor(daysRemaining);
  return (
    <Badge
      variant="light"
      color={color}
      leftSection={<IconCertificate size={12} aria-hidden />}
      data-testid={testId}
      data-color={color}
      title={t('monitor.certificate.title')}
      {...props}
    >
      {days < 0 ? t('monitor.certificate.expired') : t('monitor.certificate.days', { count: days })}
    </Badge>
  );
}
