import { Badge, Card, Center, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../../../api/errors';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { usePollingFallback } from '../../../realtime/usePollingFallback';
import { CHECKS_PAGE_SIZE, useMonitorDetailStore } from '../detailStore';
import { formatDateTime, formatResponseTime, STATUS_COLORS } from '../format';

/** The history tab: checks newest first, paged, with '-' for no error and an empty message (spec section 2). */
export function ChecksHistory() {
  const { t, i18n } = useTranslation();
  const { checks, total, page, status, error } = useMonitorDetailStore(useShallow((state) => state.checks));
  const loadChecks = useMonitorDetailStore((state) => state.loadChecks);

  useEffect(() => {
    void loadChecks(1);
  }, [loadChecks]);
  usePollingFallback(useCallback(() => void loadChecks(useMonitorDetailStore.getState().checks.page, { quiet: true }), [loadChecks]));

  const pages = Math.max(1, Math.ceil(total / CHECKS_PAGE_SIZE));

  if (status === 'error')
    return <ErrorState message={errorText(t, error, t('monitor.history.loadError'))} onRetry={() => void loadChecks(page)} />;
  if (status !== 'ready') return <LoadingState />;
  if (checks.length === 0) {
    return (
      <Card withBorder radius="md" padding="xl">
        <Center>
          <Text c="dimmed" data-testid="monitor-history-empty">
            {t('monitor.history.empty')}
          </Text>
        </Center>
      </Card>
    );
  }

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={640}>
        <Table striped verticalSpacing="xs" data-testid="monitor-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('monitor.history.time')}</Table.Th>
              <Table.Th>{t('monitor.history.status')}</Table.Th>
              <Table.Th ta="right">{t('monitor.history.responseTime')}</Table.Th>
              <Table.Th ta="right">{t('monitor.history.statusCode')}</Table.Th>
              <Table.Th>{t('monitor.history.error')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {checks.map((check) => (
              <Table.Tr key={check.id} data-testid={`monitor-check-${check.id}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(check.checked_at, i18n.language)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLORS[check.status]} data-status={check.status}>
                    {t(`monitor.status.${check.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatResponseTime(check.response_time)}
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {check.status_code ?? '-'}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={check.error ? 'red' : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
                    {check.error || '-'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('monitor.history.total', { total })}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page} onChange={(next) => void loadChecks(next)} size="sm" />}
      </Group>
    </Stack>
  );
}
