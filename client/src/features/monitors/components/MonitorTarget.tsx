import { Text, type TextProps } from '@mantine/core';
import { readableTarget, type TargetFields } from '@vigil/proto';
import { useTranslation } from 'react-i18next';

/** The monitor's target in one truncated line: URL, `host:port`, `example.com MX`, or "heartbeat" for push. */
export function MonitorTarget({ monitor, testId, ...props }: { monitor: TargetFields; testId?: string } & TextProps) {
  const { t } = useTranslation();
  const target = readableTarget(monitor) ?? t('monitor.target.heartbeat');
  return (
    <Text size="sm" c="dimmed" truncate="end" title={target} data-testid={testId} {...props}>
      {target}
    </Text>
  );
}
