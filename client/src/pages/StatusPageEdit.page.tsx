import { Button, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { errorText } from '../api/errors';
import { ApiError } from '../api/http';
import { useRead } from '../api/useRead';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { statusPagesApi } from '../features/statusPages/api';
import { StatusPageEditor } from '../features/statusPages/components/StatusPageEditor';
import { PATHS } from '../routes/paths';

/** `/status-pages/new` and `/status-pages/:slug/edit`: the page's editor, once the saved page has been read. */
export default function StatusPageEditPage() {
  const { t } = useTranslation();
  const slug = useParams().slug ?? null;
  const read = useRead(useCallback(async (signal: AbortSignal) => (slug ? (await statusPagesApi.get(slug, signal)).page : null), [slug]));
  const back = (
    <Button component={Link} to={PATHS.statusPages} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
      {t('statusPages.back')}
    </Button>
  );

  if (read.error instanceof ApiError && read.error.status === 404) {
    return (
      <Stack gap="lg">
        {back}
        <ErrorState message={t('statusPages.missing')} />
      </Stack>
    );
  }
  if (read.status === 'error') return <ErrorState message={errorText(t, read.error, t('statusPages.loadError'))} onRetry={read.retry} />;
  if (read.status === 'loading') return <LoadingState />;
  return (
    <Stack gap="lg">
      {back}
      {/* A fresh editor per page read, so its fields start from the stored values. */}
      <StatusPageEditor key={read.value?.slug ?? 'new'} page={read.value ?? null} />
    </Stack>
  );
}
