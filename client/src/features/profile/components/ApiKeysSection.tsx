import { Badge, Button, Card, CloseButton, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconKey, IconPlus } from '@tabler/icons-react';
import { API_KEY_LIMITS, type ApiKeyDto, type ApiKeyScope, type ApiKeyState, scopesForRole } from '@vigil/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { useAuthStore } from '../../auth/store';
import { formatDateTime } from '../../monitors/format';
import { apiKeysApi, EXPIRY_CHOICES } from '../apiKeys';

type Keys = { status: 'loading' } | { status: 'ready'; keys: ApiKeyDto[] } | { status: 'error'; error: unknown };

const STATE_COLORS: Record<ApiKeyState, string> = { active: 'green', expired: 'gray', revoked: 'red' };

/**
 * The profile's API keys (spec's profile screen): keys for scripts and scrapers, each with a scope. A new key is shown
 * once, right after it is made; the server keeps only its hash. Admins also see, and may revoke, everyone's keys.
 */
export function ApiKeysSection() {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const scopes = scopesForRole(user?.role ?? 'viewer');
  const [keys, setKeys] = useState<Keys>({ status: 'loading' });
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [expiry, setExpiry] = useState<string>('never');
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyDto | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setKeys({ status: 'loading' });
    setAttempt((n) => n + 1);
  };

  useEffect(() => {
    const controller = new AbortController();
    apiKeysApi
      .list(controller.signal)
      .then((response) => setKeys({ status: 'ready', keys: response.keys }))
      .catch((error: unknown) => !controller.signal.aborted && setKeys({ status: 'error', error }));
    return () => controller.abort();
  }, [attempt]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > API_KEY_LIMITS.nameMax) return setNameError(t('server.apiKeys.nameRequired'));
    setNameError(null);
    setCreating(true);
    try {
      const response = await apiKeysApi.create({ name: trimmed, scope, expiresInDays: expiry === 'never' ? null : Number(expiry) });
      setCreated({ name: response.key.name, secret: response.secret });
      setKeys((current) => (current.status === 'ready' ? { status: 'ready', keys: [response.key, ...current.keys] } : current));
      setName('');
      notify.success(t('server.apiKeys.created'));
    } catch (error) {
      notify.error(errorText(t, error, t('profile.apiKeys.createFailed')));
    } finally {
      setCreating(false);
    }
  }

  function revoked(id: number) {
    setRevoking(null);
    const at = new Date().toISOString();
    setKeys((current) =>
      current.status === 'ready'
        ? { status: 'ready', keys: current.keys.map((key) => (key.id === id ? { ...key, state: 'revoked', revoked_at: at } : key)) }
        : current,
    );
  }

  const date = (value: string | null, empty: string) => (value ? formatDateTime(value, i18n.language) : empty);
  const others = keys.status === 'ready' && keys.keys.some((key) => key.owner.id !== user?.id);

  return (
    <Paper withBorder radius="md" p="lg" data-testid="api-keys">
      <Stack gap="md">
        <div>
          <Title order={4}>{t('profile.apiKeys.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('profile.apiKeys.description')}
          </Text>
        </div>

        <form onSubmit={(event) => void create(event)} noValidate>
          <Group align="flex-start" gap="sm">
            <TextInput
              name="apiKeyName"
              label={t('profile.apiKeys.name')}
              placeholder={t('profile.apiKeys.namePlaceholder')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={nameError}
              maxLength={API_KEY_LIMITS.nameMax}
              style={{ flex: '1 1 200px' }}
              data-testid="api-key-name"
            />
            <Select
              label={t('profile.apiKeys.scope')}
              data={scopes.map((value) => ({ value, label: t(`profile.apiKeys.scopes.${value}`) }))}
              value={scope}
              onChange={(value) => value && setScope(value as ApiKeyScope)}
              allowDeselect={false}
              style={{ flex: '1 1 140px' }}
              data-testid="api-key-scope"
            />
            <Select
              label={t('profile.apiKeys.expiry')}
              data={EXPIRY_CHOICES.map((days) =>
                days === null
                  ? { value: 'never', label: t('profile.apiKeys.expiryNever') }
                  : { value: String(days), label: t('profile.apiKeys.expiryDays', { count: days }) },
              )}
              value={expiry}
              onChange={(value) => value && setExpiry(value)}
              allowDeselect={false}
              style={{ flex: '1 1 140px' }}
              data-testid="api-key-expiry"
            />
            <Button type="submit" mt={25} loading={creating} leftSection={<IconPlus size={16} />} data-testid="api-key-create">
              {t('profile.apiKeys.create')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            {t(`profile.apiKeys.scopeHelp.${scope}`)}
          </Text>
        </form>

        {created && (
          <Card withBorder radius="md" padding="md" bg="var(--mantine-color-green-light)" data-testid="api-key-created">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600}>{t('profile.apiKeys.createdTitle', { name: created.name })}</Text>
                <Group gap="xs" wrap="nowrap" c="orange.8">
                  <IconAlertTriangle size={16} style={{ flexShrink: 0 }} />
                  <Text size="sm">{t('profile.apiKeys.createdWarning')}</Text>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <TextInput
                    value={created.secret}
                    readOnly
                    aria-label={t('profile.apiKeys.secret')}
                    style={{ flex: 1, minWidth: 0 }}
                    styles={{ input: { fontFamily: 'monospace' } }}
                    data-testid="api-key-secret"
                  />
                  <CopyValueButton value={created.secret} label={t('profile.apiKeys.copy')} testId="api-key-copy" />
                </Group>
              </Stack>
              <CloseButton onClick={() => setCreated(null)} aria-label={t('profile.apiKeys.dismiss')} />
            </Group>
          </Card>
        )}

        {keys.status === 'loading' && <LoadingState />}
        {keys.status === 'error' && <ErrorState message={errorText(t, keys.error, t('profile.apiKeys.loadError'))} onRetry={retry} />}
        {keys.status === 'ready' && keys.keys.length === 0 && (
          <Group gap="xs" c="dimmed">
            <IconKey size={16} />
            <Text size="sm">{t('profile.apiKeys.empty')}</Text>
          </Group>
        )}
        {keys.status === 'ready' && keys.keys.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="api-keys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('profile.apiKeys.name')}</Table.Th>
                  {others && <Table.Th>{t('profile.apiKeys.owner')}</Table.Th>}
                  <Table.Th>{t('profile.apiKeys.scope')}</Table.Th>
                  <Table.Th>{t('profile.apiKeys.createdAt')}</Table.Th>
                  <Table.Th>{t('profile.apiKeys.lastUsed')}</Table.Th>
                  <Table.Th>{t('profile.apiKeys.expiresAt')}</Table.Th>
                  <Table.Th>{t('profile.apiKeys.state')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.keys.map((key) => (
                  <Table.Tr key={key.id} data-testid={`api-key-${key.id}`}>
                    <Table.Td>
                      <Text size="sm">{key.name}</Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {key.prefix}…
                      </Text>
                    </Table.Td>
                    {others && <Table.Td>{key.owner.username}</Table.Td>}
                    <Table.Td>{t(`profile.apiKeys.scopes.${key.scope}`)}</Table.Td>
                    <Table.Td>{date(key.created_at, '')}</Table.Td>
                    <Table.Td>{date(key.last_used_at, t('profile.apiKeys.never'))}</Table.Td>
                    <Table.Td>{date(key.expires_at, t('profile.apiKeys.expiryNever'))}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATE_COLORS[key.state]} data-testid={`api-key-state-${key.id}`}>
                        {t(`profile.apiKeys.states.${key.state}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      {key.state !== 'revoked' && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => setRevoking(key)}
                          data-testid={`api-key-revoke-${key.id}`}
                        >
                          {t('profile.apiKeys.revoke')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}

        {/* Revocation with confirmation: scripts using the key are refused from their next request. */}
        <ConfirmDeleteModal
          item={revoking}
          texts={{
            title: t('profile.apiKeys.revokeTitle'),
            message: (name) => t('profile.apiKeys.revokeMessage', { name }),
            failed: t('profile.apiKeys.revokeFailed'),
            confirm: t('profile.apiKeys.revoke'),
          }}
          onClose={() => setRevoking(null)}
          onConfirm={async (key) => {
            await apiKeysApi.revoke(key.id);
            notify.success(t('server.apiKeys.revoked'));
            revoked(key.id);
          }}
        />
      </Stack>
    </Paper>
  );
}
