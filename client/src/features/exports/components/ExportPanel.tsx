import { Button, Card, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { CheckExportTier, ExportFormat } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportsApi } from '../api';
import { useDownload } from '../useDownload';
import { DownloadProgress } from './DownloadProgress';

/** Ranges offered, in hours; the server picks the tier that still holds each (raw checks, then hourly totals). */
const RANGES: Record<'monitor' | 'agent', readonly RangeHours[]> = {
  monitor: [24, 168, 720, 2160, 8760],
  agent: [1, 24, 168, 720, 8760],
};
type RangeHours = 1 | 24 | 168 | 720 | 2160 | 8760;
const RANGE_LABELS = {
  1: 'exports.ranges.h1',
  24: 'exports.ranges.h24',
  168: 'exports.ranges.h168',
  720: 'exports.ranges.h720',
  2160: 'exports.ranges.h2160',
  8760: 'exports.ranges.h8760',
} as const satisfies Record<RangeHours, string>;
const TIERS = ['auto', 'hourly', 'daily'] as const satisfies readonly CheckExportTier[];
type OfferedTier = (typeof TIERS)[number];

interface ExportPanelProps {
  kind: 'monitor' | 'agent';
  id: number;
}

/** Downloads a monitor's checks or an agent's metrics over a recent range, as CSV or JSON, with progress. */
export function ExportPanel({ kind, id }: ExportPanelProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState<RangeHours>(RANGES[kind][0]);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [tier, setTier] = useState<OfferedTier>('auto');
  const download = useDownload();
  const testId = `${kind}-export`;

  function start() {
    const request = { hours, format, tier: kind === 'monitor' ? tier : undefined };
    void download.start(
      (onProgress, signal) =>
        kind === 'monitor'
          ? exportsApi.monitorChecks(id, request, onProgress, signal)
          : exportsApi.agentMetrics(id, request, onProgress, signal),
      `vigil-${kind}-${id}.${format}`,
    );
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="sm">
        <div>
          <Title order={4}>{t(`exports.${kind}.title`)}</Title>
          <Text size="sm" c="dimmed">
            {t(`exports.${kind}.help`)}
          </Text>
        </div>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('exports.range')}
            w={180}
            allowDeselect={false}
            value={String(hours)}
            onChange={(value) => value && setHours(Number(value) as RangeHours)}
            data={RANGES[kind].map((h) => ({ value: String(h), label: t(RANGE_LABELS[h]) }))}
            data-testid={`${testId}-range`}
          />
          {kind === 'monitor' && (
            <Select
              label={t('exports.tier')}
              w={180}
              allowDeselect={false}
              value={tier}
              onChange={(value) => value && setTier(value as OfferedTier)}
              data={TIERS.map((value) => ({ value, label: t(`exports.tiers.${value}`) }))}
              data-testid={`${testId}-tier`}
            />
          )}
          <SegmentedControl
            value={format}
            onChange={(value) => setFormat(value as ExportFormat)}
            data={[
              { value: 'csv', label: 'CSV' },
              { value: 'json', label: 'JSON' },
            ]}
            aria-label={t('exports.format')}
          />
          <Button
            leftSection={<IconDownload size={16} />}
            onClick={start}
            loading={download.bytes !== null}
            data-testid={`${testId}-download`}
          >
            {t('exports.download')}
          </Button>
        </Group>
        <DownloadProgress download={download} testId={testId} />
      </Stack>
    </Card>
  );
}
