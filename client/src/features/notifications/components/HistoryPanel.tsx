import { ActionIcon, Badge, Button, Group, Pagination, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconRefresh } from '@tabler/icons-react';
import { DELIVERY_STATUSES, type DeliveryStatus, type NotificationHistoryItem, type NotificationTargetKind } from '@vigil/proto';
import { Fragment, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { AckButton } from '../../alerts/components/AckButton';
import { useOpenAlerts } from '../../alerts/useOpenAlerts';
import { MonitorTarget } from '../../monitors/components/MonitorTarget';
import { MonitorTypeBadge } from '../../monitors/components/MonitorTypeBadge';
import { notificationsApi, type HistoryQuery } from '../api';
import { usePagedRead } from '../usePagedRead';
import classes from './HistoryPanel.module.css';

export const HISTORY_PAGE_SIZE = 20;

const STATUS_COLORS: Record<DeliveryStatus, string> = { pending: 'yellow', sent: 'green', failed: 'red' };
const TARGET_KINDS: readonly NotificationTargetKind[] = ['monitor', 'agent', 'test'];

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '-';
}

function Attempts({ item }: { item: NotificationHistoryItem }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} p="sm" data-testid={`history-attempts-${item.id}`}>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {item.text}
      </Text>
      {item.next_attempt_at && (
        <Text size="xs" c="dimmed">
          {t('notifications.history.nextAttempt', { time: when(item.next_attempt_at) })}
        </Text>
      )}
      {item.tries.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('notifications.history.noAttempts')}
        </Text>
      ) : (
        item.tries.map((attempt) => (
          <Group key={attempt.attempt} gap="xs" wrap="nowrap" align="flex-start">
            <Badge size="sm" color={attempt.ok ? 'green' : 'red'} variant="light">
              #{attempt.attempt}
            </Badge>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {when(attempt.at)} · {attempt.http_status ?? '-'} · {attempt.duration_ms} ms · {attempt.detail || '-'}
            </Text>
          </Group>
        ))
      )}
    </Stack>
  );
}

/**
 * Whom the notification is about: the kind and name, and for a monitor its type and target as the monitor list shows
 * them. The target wraps rather than truncates, so a long URL never widens the table past a phone's screen.
 */
function HistoryTarget({ item }: { item: NotificationHistoryItem }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {t(`notifications.history.targets.${item.target_kind}`)} · {item.target_name}
      </Text>
      {item.monitor && (
        <Group gap={6} wrap="nowrap" align="flex-start" mt={2}>
          <MonitorTypeBadge type={item.monitor.type} size="xs" testId={`history-monitor-type-${item.id}`} />
          <MonitorTarget
            monitor={item.monitor}
            size="xs"
            truncate={false}
            miw={0}
            style={{ overflowWrap: 'anywhere' }}
            testId={`history-monitor-target-${item.id}`}
          />
        </Group>
      )}
    </>
  );
}

/**
 * Every notification sent or still trying, newest first, paged and filtered on the server; attempts on demand. On a
 * phone: message (with time and channel below it) and status only, without sideways scrolling.
 */
export function HistoryPanel() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<HistoryQuery>({ page: 1, pageSize: HISTORY_PAGE_SIZE, status: 'all', targetKind: 'all' });
  const state = usePagedRead(useCallback((signal: AbortSignal) => notificationsApi.history(query, signal), [query]));
  const refresh = state.retry;
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const openAlerts = useOpenAlerts();

  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const pages = Math.max(1, Math.ceil(state.total / HISTORY_PAGE_SIZE));

  return (
    <Stack gap="md" data-testid="history-panel">
      <Group justify="space-between" align="flex-end">
        <Group gap="sm">
          <Select
            label={t('notifications.history.status')}
            data={[
              { value: 'all', label: t('notifications.history.all') },
              ...DELIVERY_STATUSES.map((status) => ({ value: status, label: t(`notifications.history.statuses.${status}`) })),
            ]}
            value={query.status}
            onChange={(value) => value && setQuery({ ...query, page: 1, status: value as HistoryQuery['status'] })}
            allowDeselect={false}
            w={160}
            data-testid="history-status"
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('notifications.history.target')}
            data={[
              { value: 'all', label: t('notifications.history.all') },
              ...TARGET_KINDS.map((kind) => ({ value: kind, label: t(`notifications.history.targets.${kind}`) })),
            ]}
            value={query.targetKind}
            onChange={(value) => value && setQuery({ ...query, page: 1, targetKind: value as HistoryQuery['targetKind'] })}
            allowDeselect={false}
            w={160}
            data-testid="history-target"
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={refresh}
          loading={state.status === 'loading'}
          data-testid="history-refresh"
        >
          {t('common.refresh')}
        </Button>
      </Group>

      {state.status === 'error' && <ErrorState message={errorText(t, state.error, t('common.error.fetch'))} onRetry={refresh} />}
      {state.status === 'loading' && state.items.length === 0 && <LoadingState />}
      {state.status === 'ready' && state.items.length === 0 && (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" data-testid="history-empty">
            {t('notifications.history.empty')}
          </Text>
        </Paper>
      )}
      {state.items.length > 0 && (
        <Table.ScrollContainer minWidth={760} className={classes.scroll}>
          <Table verticalSpacing="xs" data-testid="history-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36} />
                <Table.Th visibleFrom="sm">{t('notifications.history.time')}</Table.Th>
                <Table.Th>{t('notifications.history.subject')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('notifications.history.channel')}</Table.Th>
                <Table.Th>{t('notifications.history.status')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('notifications.history.attempts')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {state.items.map((item) => (
                <Fragment key={item.id}>
                  <Table.Tr data-testid={`history-row-${item.id}`} data-status={item.status}>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t('notifications.history.details')}
                        onClick={() => toggle(item.id)}
                      >
                        {open.has(item.id) ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                      </ActionIcon>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{when(item.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {item.subject}
                      </Text>
                      <HistoryTarget item={item} />
                      <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                        {when(item.created_at)} · {item.channel_name}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm">{item.channel_name}</Text>
                      <Text size="xs" c="dimmed">
                        {t(`notifications.types.${item.channel_type}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLORS[item.status]} variant="light">
                        {t(`notifications.history.statuses.${item.status}`)}
                      </Badge>
                      {item.last_error && item.status !== 'sent' && (
                        <Text size="xs" c="red" lineClamp={2} title={item.last_error}>
                          {item.last_error}
                        </Text>
                      )}
                      {item.alert_id && openAlerts[item.alert_id] && (
                        <Group mt={4}>
                          <AckButton alert={openAlerts[item.alert_id]} />
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{item.attempts}</Table.Td>
                  </Table.Tr>
                  {open.has(item.id) && (
                    <Table.Tr>
                      <Table.Td colSpan={6} p={0}>
                        <Attempts item={item} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Pagination
          total={pages}
          value={query.page}
          onChange={(page) => setQuery({ ...query, page })}
          size="sm"
          data-testid="history-pages"
        />
      )}
    </Stack>
  );
}
