import { Group, Text, Timeline, Typography } from '@mantine/core';
import type { IncidentUpdateDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';
import { INCIDENT_STATUS_COLORS } from '../form';
import { IncidentStatusBadge } from './IncidentBadges';

/** The incident's updates, newest first: status, time, author and the message as the server rendered it. */
export function IncidentTimeline({ updates }: { updates: readonly IncidentUpdateDto[] }) {
  const { t, i18n } = useTranslation();
  const newestFirst = [...updates].reverse();
  return (
    <Timeline active={0} bulletSize={14} lineWidth={2} data-testid="incident-timeline">
      {newestFirst.map((update) => (
        <Timeline.Item
          key={update.id}
          color={INCIDENT_STATUS_COLORS[update.status]}
          title={
            <Group gap="xs" wrap="wrap">
              <IncidentStatusBadge status={update.status} size="sm" />
              <Text size="xs" c="dimmed">
                {formatDateTime(update.created_at, i18n.language)}
                {' · '}
                {update.author ?? t('incidents.byVigil')}
              </Text>
            </Group>
          }
          data-testid={`incident-update-${update.id}`}
        >
          {/* The server renders the Markdown and sanitises it (no script, handlers or styles): safe to insert. */}
          <Typography mt={6} fz="sm" style={{ overflowWrap: 'anywhere' }}>
            <div dangerouslySetInnerHTML={{ __html: update.html }} />
          </Typography>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
