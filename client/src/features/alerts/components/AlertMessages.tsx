import { Badge, Group, Stack, Text } from '@mantine/core';
import type { AlertMessageDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';

const STATUS_COLORS: Record<AlertMessageDto['status'], string> = { pending: 'yellow', sent: 'green', failed: 'red' };

/** Every message an alert produced, newest first: channel, event, delivery status and time. Wraps on a phone. */
export function AlertMessages({ messages, alertId }: { messages: readonly AlertMessageDto[]; alertId: number }) {
  const { t, i18n } = useTranslation();
  if (messages.length === 0) {
    return (
      <Text size="xs" c="dimmed" data-testid={`alert-messages-${alertId}`}>
        {t('alerts.messages.none')}
      </Text>
    );
  }
  return (
    <Stack gap={6} data-testid={`alert-messages-${alertId}`}>
      {messages.map((message) => (
        <Group key={message.id} gap="xs" wrap="wrap" align="center" data-testid={`alert-message-${message.id}`}>
          <Badge size="sm" variant="light" color={STATUS_COLORS[message.status]}>
            {t(`notifications.history.statuses.${message.status}`)}
          </Badge>
          <Text size="xs" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {message.channel_name}
          </Text>
          <Text size="xs" c="dimmed">
            {message.event}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(message.sent_at ?? message.created_at, i18n.language)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
