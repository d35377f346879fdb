import { Button, Card, CloseButton, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDeviceDesktop, IconExternalLink, IconKey, IconPlus } from '@tabler/icons-react';
import { type DisplayKeyDto, STATUS_LIMITS } from '@vigil/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { PATHS } from '../../../routes/paths';
import { formatDateTime } from '../../monitors/format';
import { displayLink, wallApi } from '../api';

type Keys = { status: 'loading' } | { status: 'ready'; keys: DisplayKeyDto[] } | { status: 'error'; error: unknown };

/**
 * Display links for wall screens (admins only): each is a secret a screen opens the wall with, without signing in.
 * A new link is shown once, right after it is made; the server keeps only its hash.
 */
export function DisplayKeysPanel() {
  const { t, i18n } = useTranslation();
  const [keys, setKeys] = useState<Keys>({ status: 'loading' });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; link: string } | null>(null);
  const [revoking, setRevoking] = useState<DisplayKeyDto | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setKeys({ status: 'loading' });
    setAttempt((n) => n + 1);
  };

  useEffect(() => {
    const controller = new AbortController();
    wallApi
      .keys(controller.signal)
      .then((response) => setKeys({ status: 'ready', keys: response.keys }))
      .catch((error: unknown) => !controller.signal.aborted && setKeys({ status: 'error', error }));
    return () => controller.abort();
  }, [attempt]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('server.wall.keyNameRequired'));
    if (trimmed.length > STATUS_LIMITS.displayKeyNameMax)
      return setNameError(t('wall.keys.nameTooLong', { max: STATUS_LIMITS.displayKeyNameMax }));
    setNameError(null);
    setCreating(true);
    try {
      const response = await wallApi.createKey(trimmed);
      setCreated({ name: response.key.name, link: displayLink(window.location.origin, response.secret) });
      setKeys((current) => (current.status === 'ready' ? { status: 'ready', keys: [response.key, ...current.keys] } : current));
      setName('');
      notify.success(t('server.wall.keyCreated'));
    } catch (error) {
      notify.error(errorText(t, error, t('wall.keys.createFailed')));
    } finally {
      setCreating(false);
    }
  }

  function revoked(id: number) {
    setRevoking(null);
    setKeys((current) => (current.status === 'ready' ? { status: 'ready', keys: current.keys.filter((key) => key.id !== id) } : current));
  }

  return (
    <Stack gap="md" data-testid="display-keys">
      <Group justify="space-between" align="flex-start">
        <div>
          <Text fw={600}>{t('wall.keys.title')}</Text>
          <Text size="sm" c="dimmed" maw={640}>
            {t('wall.keys.description')}
          </Text>
        </div>
        <Button
          component={Link}
          to={PATHS.wall}
          target="_blank"
          variant="light"
          leftSection={<IconDeviceDesktop size={16} />}
          rightSection={<IconExternalLink size={14} />}
        >
          {t('wall.open')}
        </Button>
      </Group>

      <form onSubmit={(event) => void create(event)} noValidate>
        <Group align="flex-start" gap="sm">
          <TextInput
            name="displayKeyName"
            label={t('wall.keys.name')}
            placeholder={t('wall.keys.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
            maxLength={STATUS_LIMITS.displayKeyNameMax}
            style={{ flex: '1 1 260px' }}
            data-testid="display-key-name"
          />
          <Button type="submit" mt={25} loading={creating} leftSection={<IconPlus size={16} />} data-testid="display-key-create">
            {t('wall.keys.create')}
          </Button>
        </Group>
      </form>

      {created && (
        <Card withBorder radius="md" padding="md" bg="var(--mantine-color-green-light)" data-testid="display-key-created">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
              <Text fw={600}>{t('wall.keys.createdTitle', { name: created.name })}</Text>
              <Text size="sm">{t('wall.keys.createdNote')}</Text>
              <Group gap="xs" wrap="nowrap">
                <TextInput
                  value={created.link}
                  readOnly
                  aria-label={t('wall.keys.link')}
                  style={{ flex: 1 }}
                  styles={{ input: { fontFamily: 'monospace' } }}
                  data-testid="display-key-link"
                />
                <CopyValueButton value={created.link} label={t('wall.keys.copyLink')} testId="display-key-copy" />
              </Group>
            </Stack>
            <CloseButton onClick={() => setCreated(null)} aria-label={t('wall.keys.dismiss')} />
          </Group>
        </Card>
      )}

      {keys.status === 'loading' && <LoadingState />}
      {keys.status === 'error' && <ErrorState message={errorText(t, keys.error, t('wall.keys.loadError'))} onRetry={retry} />}
      {keys.status === 'ready' && keys.keys.length === 0 && (
        <Group gap="xs" c="dimmed">
          <IconKey size={16} />
          <Text size="sm">{t('wall.keys.empty')}</Text>
        </Group>
      )}
      {keys.status === 'ready' && keys.keys.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" data-testid="display-keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wall.keys.name')}</Table.Th>
                <Table.Th>{t('wall.keys.createdAt')}</Table.Th>
                <Table.Th>{t('wall.keys.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.keys.map((key) => (
                <Table.Tr key={key.id} data-testid={`display-key-${key.id}`}>
                  <Table.Td>{key.name}</Table.Td>
                  <Table.Td>{formatDateTime(key.created_at, i18n.language)}</Table.Td>
                  <Table.Td>{key.last_used_at ? formatDateTime(key.last_used_at, i18n.language) : t('wall.keys.never')}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setRevoking(key)}
                      data-testid={`display-key-revoke-${key.id}`}
                    >
                      {t('wall.keys.revoke')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {/* Revocation with confirmation: screens using the link stop at once. */}
      <ConfirmDeleteModal
        item={revoking}
        texts={{
          title: t('wall.keys.revokeTitle'),
          message: (name) => t('wall.keys.revokeMessage', { name }),
          failed: t('wall.keys.revokeFailed'),
          confirm: t('wall.keys.revoke'),
        }}
        onClose={() => setRevoking(null)}
        onConfirm={async (key) => {
          await wallApi.revokeKey(key.id);
          notify.success(t('wall.keys.revoked'));
          revoked(key.id);
        }}
      />
    </Stack>
  );
}
