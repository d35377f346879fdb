import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLogoAddress } from '@vigil/proto';
import { LiveBadge } from '../../../components/LiveBadge/LiveBadge';
import { formatDateTime } from '../../monitors/format';

interface StatusPageHeaderProps {
  title: string;
  description: string;
  logoUrl: string | null;
  updatedAt: string | null;
}

/** Only image addresses (this server, data: images, http(s)) become images; anything else is not shown. */
function isWebAddress(url: string | null): url is string {
  return url !== null && isLogoAddress(url);
}

/** The page's logo, title, description, when it was last updated and whether it follows changes live. */
export function StatusPageHeader({ title, description, logoUrl, updatedAt }: StatusPageHeaderProps) {
  const { t, i18n } = useTranslation();
  // Remembered per address: a new logo address is tried again.
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const logoFailed = failedLogo !== null && failedLogo === logoUrl;

  return (
    <Group justify="space-between" align="flex-start" gap="md" className="vigil-status-header">
      <Group gap="md" wrap="nowrap" align="center" miw={0}>
        {isWebAddress(logoUrl) && !logoFailed && (
          <img
            src={logoUrl.trim()}
            alt={t('statusPage.logoAlt', { title })}
            className="vigil-status-logo"
            referrerPolicy="no-referrer"
            style={{ maxHeight: 56, maxWidth: 200, objectFit: 'contain' }}
            onError={() => setFailedLogo(logoUrl)}
            data-testid="status-logo"
          />
        )}
        <Stack gap={4} miw={0}>
          <Title order={1} fz={{ base: 26, sm: 32 }} data-testid="status-title">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" style={{ whiteSpace: 'pre-line' }} data-testid="status-description">
              {description}
            </Text>
          )}
        </Stack>
      </Group>
      <Group gap="xs">
        {updatedAt && (
          <Badge variant="light" color="gray" leftSection={<IconClock size={12} />} data-testid="status-updated">
            {t('statusPage.lastUpdated', { time: formatDateTime(updatedAt, i18n.language) })}
          </Badge>
        )}
        <LiveBadge />
      </Group>
    </Group>
  );
}
