import { EmptyState, Group, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import type { AuditResponse } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { AUDIT_PAGE_SIZE, auditApi, type AuditFilters } from '../features/audit/api';
import { AuditFilterBar } from '../features/audit/components/AuditFilterBar';
import { AuditTable } from '../features/audit/components/AuditTable';

/** The answer to one read; a read whose key is not the current one is still loading. */
type Answer = { key: string } & ({ status: 'error'; error: unknown } | { status: 'ready'; data: AuditResponse });
type Loaded = { status: 'loading' } | Answer;

/** Who changed what, when and from where: the audit log, newest first, for admins. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const key = JSON.stringify({ page, filters, attempt });
  const loaded: Loaded = answer?.key === key ? answer : { status: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    auditApi
      .page(page, filters, controller.signal)
      .then((data) => setAnswer({ key, status: 'ready', data }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ key, status: 'error', error });
      });
    return () => controller.abort();
  }, [page, filters, key]);

  const apply = (next: AuditFilters) => {
    setPage(1);
    setFilters(next);
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>{t('audit.title')}</Title>
        <Text c="dimmed" mt={4}>
          {t('audit.subtitle')}
        </Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <AuditFilterBar onApply={apply} />
      </Paper>
      {loaded.status === 'loading' && <LoadingState />}
      {loaded.status === 'error' && (
        <ErrorState message={errorText(t, loaded.error, t('audit.error'))} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {loaded.status === 'ready' && loaded.data.entries.length === 0 && (
        <EmptyState icon={<IconHistory size={28} />} variant="light" title={t('audit.empty')} />
      )}
      {loaded.status === 'ready' && loaded.data.entries.length > 0 && (
        <Stack gap="sm">
          <AuditTable entries={loaded.data.entries} />
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {loaded.data.totalCapped
                ? t('audit.totalMore', { count: loaded.data.total })
                : t('audit.total', { count: loaded.data.total })}
            </Text>
            {loaded.data.total > AUDIT_PAGE_SIZE && (
              <Pagination total={Math.ceil(loaded.data.total / AUDIT_PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
            )}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
