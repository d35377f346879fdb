import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit, IconSend, IconTrash } from '@tabler/icons-react';
import type { IncidentDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ConfirmDeleteModal } from '../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { ComponentList } from '../features/componentPicker/ComponentList';
import { refsOf } from '../features/componentPicker/refs';
import { incidentsApi } from '../features/incidents/api';
import { ImpactBadge, IncidentStatusBadge } from '../features/incidents/components/IncidentBadges';
import { IncidentTimeline } from '../features/incidents/components/IncidentTimeline';
import { IncidentUpdateForm } from '../features/incidents/components/IncidentUpdateForm';
import { formOfIncident, saveIncidentRequest } from '../features/incidents/form';
import { useIncidentDetailStore } from '../features/incidents/store';
import { formatDateTime } from '../features/monitors/format';
import { publicPagePath } from '../features/statusPages/api';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { incidentEditPath, parseIdParam, PATHS } from '../routes/paths';

/** An incident with its timeline of updates: post the next update, publish a draft, edit or delete it. Live. */
export default function IncidentDetailPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const id = parseIdParam(useParams().id);
  const canWrite = useAuthStore(selectCanWrite);
  const { storeId, incident, status, error, removed, load, accept } = useIncidentDetailStore(
    useShallow((state) => ({
      storeId: state.id,
      incident: state.incident,
      status: state.status,
      error: state.error,
      removed: state.removed,
      load: state.load,
      accept: state.accept,
    })),
  );
  const [publishing, setPublishing] = useState(false);
  const [deleting, setDeleting] = useState<(IncidentDto & { name: string }) | null>(null);

  useEffect(() => {
    if (id !== null) void load(id);
  }, [id, load]);
  useEffect(() => joinRoom('incidents'), []);
  usePollingFallback(
    useCallback(() => {
      if (id !== null) void load(id, { quiet: true });
    }, [id, load]),
  );

  const back = (
    <Button component={Link} to={PATHS.incidents} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
      {t('incidents.back')}
    </Button>
  );
  if (id === null || status === 'missing' || removed) {
    return (
      <Stack gap="lg">
        {back}
        <ErrorState message={t('incidents.missing')} />
      </Stack>
    );
  }
  if (storeId !== id || !incident || status === 'loading' || status === 'idle') {
    if (status === 'error') return <ErrorState message={errorText(t, error, t('incidents.loadError'))} onRetry={() => void load(id)} />;
    return <LoadingState />;
  }
  const shown = incident;

  async function publish() {
    setPublishing(true);
    try {
      const answer = await incidentsApi.update(shown.id, { ...saveIncidentRequest(formOfIncident(shown)), published: true });
      accept(answer.incident);
      notify.success(t('incidents.publishedNow'));
    } catch (failure) {
      notify.error(errorText(t, failure, t('incidents.saveFailed')), t('incidents.saveFailed'));
    } finally {
      setPublishing(false);
    }
  }

  async function remove(target: IncidentDto) {
    await incidentsApi.remove(target.id);
    notify.success(t('incidents.deleted'));
    setDeleting(null);
    navigate(PATHS.incidents);
  }

  const components = refsOf({ monitors: shown.monitors, agents: shown.agents });
  return (
    <Stack gap="lg" data-testid="incident-detail">
      {back}
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="incident-detail-title">
            {shown.title}
          </Title>
          <Group gap={6} wrap="wrap">
            {!shown.published && (
              <Badge color="gray" variant="outline" data-testid="incident-detail-draft">
                {t('incidents.draft')}
              </Badge>
            )}
            <ImpactBadge impact={shown.impact} />
            <IncidentStatusBadge status={shown.status} data-testid="incident-detail-status" />
          </Group>
          <Text size="xs" c="dimmed">
            {t('incidents.opened', { time: formatDateTime(shown.created_at, i18n.language) })}
            {shown.resolved_at && ` · ${t('incidents.resolvedAt', { time: formatDateTime(shown.resolved_at, i18n.language) })}`}
          </Text>
        </Stack>
        {canWrite && (
          <Group gap="sm">
            {!shown.published && (
              <Button
                leftSection={<IconSend size={16} />}
                loading={publishing}
                onClick={() => void publish()}
                data-testid="incident-publish"
              >
                {t('incidents.publish')}
              </Button>
            )}
            <Button
              component={Link}
              to={incidentEditPath(shown.id)}
              variant="default"
              leftSection={<IconEdit size={16} />}
              data-testid="incident-edit"
            >
              {t('common.edit')}
            </Button>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting({ ...shown, name: shown.title })}
              data-testid="incident-delete"
            >
              {t('common.delete')}
            </Button>
          </Group>
        )}
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md" radius="md">
          <Text fw={600} mb="xs">
            {t('incidents.form.components')}
          </Text>
          <ComponentList
            refs={components}
            onRemove={() => undefined}
            readOnly
            emptyText={t('incidents.allComponents')}
            testId="incident-detail-components"
          />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Text fw={600} mb="xs">
            {t('statusPages.pick.label')}
          </Text>
          <Group gap={6} data-testid="incident-detail-pages">
            {shown.pages.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('incidents.noPages')}
              </Text>
            )}
            {shown.pages.map((slug) => (
              <Badge key={slug} variant="light" color="gray" tt="none">
                {publicPagePath(slug)}
              </Badge>
            ))}
          </Group>
        </Paper>
      </SimpleGrid>

      {canWrite && <IncidentUpdateForm key={shown.id} incident={shown} onPosted={accept} />}
      <IncidentTimeline updates={shown.updates} />

      <ConfirmDeleteModal
        item={deleting}
        texts={{
          title: t('incidents.deleteTitle'),
          message: (name) => t('incidents.deleteMessage', { title: name }),
          failed: t('incidents.deleteFailed'),
          confirm: t('common.delete'),
        }}
        onClose={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}
