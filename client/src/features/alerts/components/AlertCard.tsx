import { Anchor, Badge, Button, Card, Collapse, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconActivity, IconChevronDown, IconChevronRight, IconServer } from '@tabler/icons-react';
import type { AlertDto, AlertStateName } from '@vigil/proto';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath, monitorDetailPath } from '../../../routes/paths';
import { formatSpan, spanOfSeconds } from '../../agents/format';
import { formatDateTime } from '../../monitors/format';
import { alertDurationSeconds } from '../live';
import { metricLabel } from '../metricLabel';
import { AckButton } from './AckButton';
import { AckInfo } from './AckInfo';
import { AlertMessages } from './AlertMessages';

export const ALERT_STATE_COLORS: Record<AlertStateName, string> = { open: 'red', acknowledged: 'orange', resolved: 'green' };

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

/**
 * One alert: its target (linked), what it is about, state, times, duration, acknowledgement, escalation and
 * reminders, and its messages on demand. A card at every width, so a phone shows it without sideways scrolling.
 */
export const AlertCard = memo(function AlertCard({ alert, now }: { alert: AlertDto; now: number }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const Icon = alert.target_kind === 'monitor' ? IconActivity : IconServer;
  const path = alert.target_kind === 'monitor' ? monitorDetailPath(alert.target_id) : agentDetailPath(alert.target_id);
  const duration = formatSpan(spanOfSeconds(alertDurationSeconds(alert, now)), (unit, count) => t(`agent.duration.${unit}`, { count }));
  return (
    <Card withBorder radius="md" padding="md" data-testid={`alert-card-${alert.id}`} data-state={alert.state}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Icon size={18} style={{ flexShrink: 0 }} />
            <Anchor component={Link} to={path} fw={600} style={{ overflowWrap: 'anywhere' }} data-testid={`alert-target-${alert.id}`}>
              {alert.target_name}
            </Anchor>
            <Badge variant="outline" size="sm" style={{ flexShrink: 1, minWidth: 0 }} data-testid={`alert-metric-${alert.id}`}>
              {metricLabel(t, alert)}
            </Badge>
          </Group>
          <Badge color={ALERT_STATE_COLORS[alert.state]} variant="light" style={{ flexShrink: 0 }} data-testid={`alert-state-${alert.id}`}>
            {t(`alerts.states.${alert.state}`)}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Fact label={t('alerts.fields.opened')}>{formatDateTime(alert.opened_at, i18n.language)}</Fact>
          <Fact label={t('alerts.fields.closed')}>{alert.closed_at ? formatDateTime(alert.closed_at, i18n.language) : '-'}</Fact>
          <Fact label={t('alerts.fields.duration')} testId={`alert-duration-${alert.id}`}>
            {duration}
          </Fact>
          <Fact label={t('alerts.fields.followUp')} testId={`alert-follow-up-${alert.id}`}>
            {t('alerts.fields.followUpValue', { step: alert.escalation_step, reminders: alert.reminders_sent })}
          </Fact>
        </SimpleGrid>
        <AckInfo alert={alert} />
        <Group justify="space-between" gap="xs">
          <Button
            variant="subtle"
            size="xs"
            px={0}
            leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            data-testid={`alert-messages-toggle-${alert.id}`}
          >
            {t('alerts.messages.toggle', { count: alert.messages.length })}
          </Button>
          <AckButton alert={alert} />
        </Group>
        <Collapse expanded={open}>{open && <AlertMessages messages={alert.messages} alertId={alert.id} />}</Collapse>
      </Stack>
    </Card>
  );
});
