import { Group, Progress, Stack, Text } from '@mantine/core';
import { barColor } from '../format';

interface ResourceBarProps {
  label: string;
  /** Fill, 0–100; null before the first report. */
  percent: number | null;
  /** The figure beside the label, e.g. `12.3%` or `1.5 MB/s`. */
  value: string;
  /** A line under the bar, e.g. `3.1 GB of 7.8 GB`. */
  detail?: string;
  size?: 'xs' | 'sm' | 'md';
  testId?: string;
}

/** One resource as a labelled bar coloured by load: green under 50, amber under 75, red above (spec section 9). */
export function ResourceBar({ label, percent, value, detail, size = 'md', testId }: ResourceBarProps) {
  const compact = size === 'xs';
  return (
    <Stack
      gap={compact ? 2 : 4}
      data-testid={testId}
      data-percent={percent === null ? undefined : percent.toFixed(1)}
      data-color={barColor(percent)}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size={compact ? 'xs' : 'sm'} c="dimmed">
          {label}
        </Text>
        <Text size={compact ? 'xs' : 'sm'} fw={500} ff="monospace">
          {value}
        </Text>
      </Group>
      <Progress value={percent ?? 0} color={barColor(percent)} size={compact ? 'sm' : 'lg'} radius="xl" aria-label={`${label} ${value}`} />
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Stack>
  );
}
