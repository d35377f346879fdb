import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { KumaImportReport as Report } from '@vigil/proto';
import { useTranslation } from 'react-i18next';

const ACTION_COLORS = { create: 'teal', update: 'blue', delete: 'red', unchanged: 'gray' } as const;

/** What an import did (or, on a dry run, would do): counts, each item changed, what was skipped and why, notes. */
export function KumaImportReport({ report }: { report: Report }) {
  const { t } = useTranslation();
  const changed = report.items.filter((item) => item.action !== 'unchanged');
  return (
    <Stack gap="md" data-testid="kuma-report">
      <Title order={3}>{t(report.dryRun ? 'kumaImport.report.dryRunTitle' : 'kumaImport.report.doneTitle')}</Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {(['create', 'update', 'unchanged'] as const).map((action) => (
          <Paper key={action} withBorder p="sm" radius="md" data-testid={`kuma-count-${action}`}>
            <Text size="xs" c="dimmed">
              {t(`kumaImport.action.${action}`)}
            </Text>
            <Text fw={700} size="xl">
              {report.counts[action]}
            </Text>
          </Paper>
        ))}
        <Paper withBorder p="sm" radius="md" data-testid="kuma-count-skipped">
          <Text size="xs" c="dimmed">
            {t('kumaImport.report.skipped')}
          </Text>
          <Text fw={700} size="xl">
            {report.skipped.length}
          </Text>
        </Paper>
      </SimpleGrid>
      {!report.dryRun && (
        <Text size="sm" data-testid="kuma-extras">
          {t('kumaImport.report.extras', {
            incidents: report.incidents.created,
            checks: report.history.checks,
            days: report.history.days,
          })}
        </Text>
      )}
      {changed.length > 0 && (
        <Stack gap={4}>
          <Title order={4}>{t('kumaImport.report.items')}</Title>
          {changed.map((item) => (
            <Group key={`${item.kind}:${item.key}`} gap="xs" wrap="nowrap" data-testid="kuma-item">
              <Badge color={ACTION_COLORS[item.action]} variant="light" style={{ flexShrink: 0 }}>
                {t(`kumaImport.action.${item.action}`)}
              </Badge>
              <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                {t(`kumaImport.kind.${item.kind}`)}
              </Text>
              <Text size="sm" truncate>
                {item.name}
                {item.fields?.length ? ` (${item.fields.join(', ')})` : ''}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {report.skipped.length > 0 && (
        <Stack gap={4}>
          <Title order={4}>{t('kumaImport.report.skipped')}</Title>
          <List size="sm" spacing={2}>
            {report.skipped.map((item, index) => (
              <List.Item key={`${item.kind}:${item.name}:${index}`} data-testid="kuma-skipped">
                {t(`kumaImport.kind.${item.kind}`)} “{item.name}”: {t(`kumaImport.reason.${item.reason}`)}
                {item.detail ? ` (${item.detail})` : ''}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      {report.notes.length > 0 && (
        <Stack gap={4}>
          <Title order={4}>{t('kumaImport.report.notes')}</Title>
          <List size="sm" spacing={2}>
            {report.notes.map((note, index) => (
              <List.Item key={`${note.kind}:${note.name}:${index}`}>
                {t(`kumaImport.kind.${note.kind}`)} “{note.name}”: {note.notes.join('; ')}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Stack>
  );
}
