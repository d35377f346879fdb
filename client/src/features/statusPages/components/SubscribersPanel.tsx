import { ActionIcon, Badge, EmptyState, Group, Pagination, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconMailOff, IconTrash } from '@tabler/icons-react';
import type { SubscriberDto } from '@vigil/proto';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { useRead } from '../../../api/useRead';
import { notify } from '../../../app/notify';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { SearchInput } from '../../../components/ListControls/ListControls';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { formatDateTime } from '../../monitors/format';
import { statusPagesApi, SUBSCRIBERS_PAGE_SIZE } from '../api';

/** A page's subscribers for admins: paged and searched on the server, each removable. Addresses are never public. */
export function SubscribersPanel({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [removing, setRemoving] = useState<(SubscriberDto & { name: string }) | null>(null);
  const read = useCallback(
    (signal: AbortSignal) => statusPagesApi.subscribers(slug, { page, pageSize: SUBSCRIBERS_PAGE_SIZE, search }, signal),
    [slug, page, search],
  );
  const { status, value, error, retry } = useRead(read);

  async function remove(subscriber: SubscriberDto) {
    await statusPagesApi.removeSubscriber(slug, subscriber.id);
    notify.success(t('statusPages.subscribers.removed'));
    setRemoving(null);
    retry();
  }

  const pages = Math.max(1, Math.ceil((value?.total ?? 0) / SUBSCRIBERS_PAGE_SIZE));
  return (
    <Stack gap="md" data-testid="page-subscribers">
      <Group justify="space-between" wrap="wrap">
        <SearchInput
          search={search}
          onSearch={(next) => {
            setSearch(next);
            setPage(1);
          }}
          label={t('statusPages.subscribers.search')}
          testId="page-subscribers-search"
        />
        {value && (
          <Text size="sm" c="dimmed" data-testid="page-subscribers-total">
            {t('statusPages.subscribers.total', { count: value.total })}
          </Text>
        )}
      </Group>
      {status === 'error' && <ErrorState message={errorText(t, error, t('statusPages.subscribers.loadError'))} onRetry={retry} />}
      {status === 'loading' && !value && <LoadingState />}
      {value && value.subscribers.length === 0 && (
        <EmptyState
          icon={<IconMailOff size={28} />}
          variant="light"
          title={t('statusPages.subscribers.empty')}
          data-testid="page-subscribers-empty"
        />
      )}
      {value && value.subscribers.length > 0 && (
        <Table striped verticalSpacing="xs" style={{ opacity: status === 'loading' ? 0.6 : 1 }} data-testid="page-subscribers-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('statusPages.subscribers.address')}</Table.Th>
              <Table.Th>{t('statusPages.subscribers.state')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('statusPages.subscribers.since')}</Table.Th>
              <Table.Th w={48} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {value.subscribers.map((subscriber) => (
              <Table.Tr key={subscriber.id} data-testid={`subscriber-${subscriber.id}`}>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Text size="sm">{subscriber.address}</Text>
                  <Text size="xs" c="dimmed">
                    {t(`statusPages.subscribers.kinds.${subscriber.kind}`)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" color={subscriber.confirmed ? 'green' : 'yellow'}>
                    {subscriber.confirmed ? t('statusPages.subscribers.confirmed') : t('statusPages.subscribers.pending')}
                  </Badge>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatDateTime(subscriber.confirmed_at ?? subscriber.created_at, i18n.language)}</Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label={t('statusPages.subscribers.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => setRemoving({ ...subscriber, name: subscriber.address })}
                      aria-label={t('statusPages.subscribers.remove')}
                      data-testid={`subscriber-remove-${subscriber.id}`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" data-testid="page-subscribers-pages" />}
      <ConfirmDeleteModal
        item={removing}
        texts={{
          title: t('statusPages.subscribers.removeTitle'),
          message: (name) => t('statusPages.subscribers.removeMessage', { address: name }),
          failed: t('statusPages.subscribers.removeFailed'),
          confirm: t('statusPages.subscribers.remove'),
        }}
        onClose={() => setRemoving(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}
