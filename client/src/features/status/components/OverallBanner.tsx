import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { OverallStatus } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { OVERALL_COLORS } from '../overall';

const ICONS = { operational: IconCircleCheck, degraded: IconAlertTriangle, outage: IconCircleX } as const;

/** The status page's summary line: all operational, some issues, or a major outage. */
export function OverallBanner({ overall }: { overall: OverallStatus }) {
  const { t } = useTranslation();
  const Icon = ICONS[overall];
  const color = OVERALL_COLORS[overall];
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      className="vigil-status-overall"
      bg={`var(--mantine-color-${color}-light)`}
      data-testid="status-overall"
      data-overall={overall}
      role="status"
    >
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon color={color} variant="filled" radius="xl" size="lg">
          <Icon size={20} />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {t(`statusPage.overall.${overall}`)}
        </Text>
      </Group>
    </Paper>
  );
}
