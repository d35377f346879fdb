import { Button, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconWorldWww } from '@tabler/icons-react';
import type { StatusPageSummary } from '@vigil/proto';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorText } from '../api/errors';
import { useRead } from '../api/useRead';
import { notify } from '../app/notify';
import { ConfirmDeleteModal } from '../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { statusPagesApi } from '../features/statusPages/api';
import { StatusPagesTable } from '../features/statusPages/components/StatusPagesTable';
import { PATHS } from '../routes/paths';

/** Every status page: where it is served, who may read it, its size and subscribers; create, edit and delete. */
export default function StatusPagesPage() {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const read = useCallback((signal: AbortSignal) => statusPagesApi.list(signal), []);
  const { status, value, error, retry } = useRead(read);
  const [deleting, setDeleting] = useState<(StatusPageSummary & { name: string }) | null>(null);

  async function remove(page: StatusPageSummary) {
    await statusPagesApi.remove(page.slug);
    notify.success(t('statusPages.deleted'));
    setDeleting(null);
    retry();
  }

  const createButton = (testId: string) =>
    canWrite && (
      <Button component={Link} to={PATHS.statusPageCreate} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('statusPages.create')}
      </Button>
    );

  return (
    <Stack gap="lg" data-testid="status-pages-page">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('statusPages.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('statusPages.subtitle')}
          </Text>
        </div>
        {createButton('status-pages-create')}
      </Group>
      {status === 'error' && <ErrorState message={errorText(t, error, t('statusPages.loadError'))} onRetry={retry} />}
      {status === 'loading' && !value && <LoadingState />}
      {value && value.pages.length === 0 && (
        <EmptyState icon={<IconWorldWww size={28} />} variant="light" title={t('statusPages.empty')} data-testid="status-pages-empty">
          <EmptyState.Actions>{createButton('status-pages-empty-create')}</EmptyState.Actions>
        </EmptyState>
      )}
      {value && value.pages.length > 0 && (
        <StatusPagesTable pages={value.pages} canWrite={canWrite} onDelete={(page) => setDeleting({ ...page, name: page.title })} />
      )}
      <ConfirmDeleteModal
        item={deleting}
        texts={{
          title: t('statusPages.deleteTitle'),
          message: (name) => t('statusPages.deleteMessage', { name }),
          failed: t('statusPages.deleteFailed'),
          confirm: t('common.delete'),
        }}
        onClose={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}
