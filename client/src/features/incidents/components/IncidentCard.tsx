import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { IncidentDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { incidentDetailPath } from '../../../routes/paths';
import { formatDateTime } from '../../monitors/format';
import { ImpactBadge, IncidentStatusBadge } from './IncidentBadges';

/** Characters of the newest message shown in the list. */
const EXCERPT_CHARS = 160;

/** The words of the server's rendered message, without its Markdown marks or tags (parsing runs no script). */
export function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

/** One incident in the list: title, impact, status, draft, pages, when, and the start of its newest message. */
export const IncidentCard = memo(function IncidentCard({ incident }: { incident: IncidentDto }) {
  const { t, i18n } = useTranslation();
  const newest = incident.updates.at(-1);
  const words = newest ? plainText(newest.html) : '';
  const excerpt = words.length > EXCERPT_CHARS ? `${words.slice(0, EXCERPT_CHARS)}…` : words;
  return (
    <Paper withBorder radius="md" p="md" data-testid={`incident-card-${incident.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Anchor component={Link} to={incidentDetailPath(incident.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {incident.title}
          </Anchor>
          <Group gap={6} wrap="wrap">
            {!incident.published && (
              <Badge color="gray" variant="outline" data-testid={`incident-draft-${incident.id}`}>
                {t('incidents.draft')}
              </Badge>
            )}
            <ImpactBadge impact={incident.impact} />
            <IncidentStatusBadge status={incident.status} data-testid={`incident-status-${incident.id}`} />
          </Group>
        </Group>
        {excerpt && (
          <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {excerpt}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t('incidents.meta', {
            opened: formatDateTime(incident.created_at, i18n.language),
            updates: incident.updates.length,
            pages: incident.pages.length ? incident.pages.join(', ') : t('incidents.noPages'),
          })}
        </Text>
      </Stack>
    </Paper>
  );
});
