import { Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { formatBytes } from '../../agents/format';
import type { DownloadState } from '../useDownload';

/** While a download runs: the bytes received and a cancel button; after a failure: why. */
export function DownloadProgress({ download, testId }: { download: DownloadState; testId: string }) {
  const { t } = useTranslation();
  if (download.bytes !== null) {
    return (
      <Group gap="xs" data-testid={`${testId}-progress`} aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('exports.downloading', { size: formatBytes(download.bytes) })}
        </Text>
        <Button variant="subtle" size="compact-sm" onClick={download.cancel}>
          {t('exports.cancel')}
        </Button>
      </Group>
    );
  }
  if (!download.error) return null;
  return (
    <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
      {errorText(t, download.error, t('exports.failed'))}
    </Text>
  );
}
