import { Text, type TextProps } from '@mantine/core';
import { readableTarget, type TargetFields } from '@vigil/proto';
import { useTranslation } from 'react-i18next';

/** The monitor's target in one truncated line: URL, `host:port`, `example.com MX`, "heartbeat" for push, "3 members" for a group. */
export function MonitorTarget({
  monitor,
  testId,
  ...props
}: { monitor: TargetFields & { member_count?: number }; testId?: string } & TextProps) {
  const { t } = useTranslation();
  const target =
    readableTarget(monitor) ??
    (monitor.type === 'group' ? t('monitor.target.members', { count: monitor.member_count ?? 0 }) : t('monitor.target.heartbeat'));
  return (
    <Text size="sm" c="dimmed" truncate="end" title={target} data-testid={testId} {...props}>
      {target}
    </Text>
  );
}
