import { ActionIcon, Alert, Button, Group, Modal, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { CHANNEL_LANGUAGES, isChannelType, isSecretField, SECRET_MASK, type NotificationChannelDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ApiError } from '../../../api/http';
import { notify } from '../../../app/notify';
import { ChannelGroupingFields } from '../../alerts/components/ChannelGroupingFields';
import { notificationsApi } from '../api';
import { FieldInput } from './ChannelField';
import {
  CHANNEL_NAME_MAX,
  emptyChannelForm,
  formFromChannel,
  inputFields,
  mapField,
  serverFieldError,
  toChannelRequest,
  typesByFamily,
  validateChannel,
  withType,
  type ChannelErrors,
  type ChannelForm,
} from '../channelForm';

interface ChannelDialogProps {
  opened: boolean;
  /** The channel edited; null creates one. */
  channel: NotificationChannelDto | null;
  onClose: () => void;
  /** After a successful save, with the channel's id. */
  onSaved: (id: number) => void;
}

type TestResult = { ok: boolean; text: string } | null;

/** Create or edit a channel (spec section 4): type-specific fields, checks before sending, a test send. */
export function ChannelDialog({ opened, channel, onClose, onSaved }: ChannelDialogProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ChannelForm>(emptyChannelForm());
  const [errors, setErrors] = useState<ChannelErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<TestResult>(null);

  // Each opening starts afresh from the channel it opens with: the state is adjusted while rendering the change
  // (React's pattern for state that follows a prop), so no stale form is ever painted.
  const [openedWith, setOpenedWith] = useState<NotificationChannelDto | null | undefined>(undefined);
  const openWith = opened ? channel : undefined;
  if (openWith !== openedWith) {
    setOpenedWith(openWith);
    if (openWith !== undefined) {
      setForm(openWith ? formFromChannel(openWith) : emptyChannelForm());
      setErrors({});
      setFailure(null);
      setTestResult(null);
    }
  }

  function update(next: ChannelForm, field?: string) {
    setForm(next);
    if (field && errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function setField(key: string, value: string) {
    update({ ...form, fields: { ...form.fields, [key]: value } }, key);
  }

  function checked(): boolean {
    const found = validateChannel(form);
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  /** A field the server refused (a secret it will not re-use for this destination, a value) is marked on the field. */
  function showReenter(error: unknown) {
    const found = serverFieldError(error);
    if (found) setErrors(found);
  }

  async function save() {
    setFailure(null);
    if (!checked()) return;
    setSaving(true);
    try {
      const body = toChannelRequest(form);
      let id = channel?.id ?? 0;
      if (channel) await notificationsApi.updateChannel(channel.id, body);
      else id = (await notificationsApi.createChannel(body)).data.id;
      notify.success(t('server.notifications.channelSaved'));
      onSaved(id);
    } catch (error) {
      showReenter(error);
      setFailure(errorText(t, error, t('server.notifications.channelSaveFailed')));
    } finally {
      setSaving(false);
    }
  }

  async function sendTest() {
    setTestResult(null);
    setFailure(null);
    if (!checked()) return;
    setTesting(true);
    try {
      const answer = await notificationsApi.testChannel(channel?.id ?? null, toChannelRequest(form));
      setTestResult({
        ok: true,
        text: t('notifications.dialog.testSent', { status: answer.data.status ?? '-', detail: answer.data.detail || '-' }),
      });
    } catch (error) {
      showReenter(error);
      // A provider's refusal (502) carries its answer in the message; anything else is said as usual.
      const text =
        error instanceof ApiError && error.status === 502 && !error.code
          ? error.message
          : errorText(t, error, t('server.notifications.testFailed'));
      setTestResult({ ok: false, text });
    } finally {
      setTesting(false);
    }
  }

  /** Under a field read back masked: a whole secret is kept as saved, or the credentials inside a URL are. */
  const keptHint = (secret: boolean | undefined, value: string) =>
    secret && value === SECRET_MASK
      ? t('notifications.dialog.secretKept')
      : !secret && value.includes(SECRET_MASK)
        ? t('notifications.dialog.urlSecretKept')
        : undefined;
  const fieldError = (key: string) => (errors[key] ? t(errors[key] as 'server.notifications.botTokenRequired') : undefined);
  const editing = channel !== null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? t('notifications.dialog.editTitle') : t('notifications.dialog.createTitle')}
      size="lg"
      centered
      data-testid="channel-dialog"
    >
      <Stack gap="md">
        <TextInput
          label={t('notifications.dialog.name')}
          required
          value={form.name}
          maxLength={CHANNEL_NAME_MAX}
          onChange={(event) => update({ ...form, name: event.currentTarget.value }, 'name')}
          error={fieldError('name')}
          data-testid="channel-name"
        />
        <Group grow align="flex-start">
          <Select
            label={t('notifications.dialog.type')}
            data={typesByFamily().map(({ family, types }) => ({
              group: t(`notifications.families.${family}`),
              items: types.map((type) => ({ value: type, label: t(`notifications.types.${type}`) })),
            }))}
            searchable
            value={form.type}
            onChange={(next) => {
              if (!isChannelType(next) || next === form.type) return;
              // A new type clears the configuration and every message (spec section 4).
              setForm(withType(form, next));
              setErrors({});
              setTestResult(null);
            }}
            allowDeselect={false}
            data-testid="channel-type"
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('notifications.dialog.language')}
            description={t('notifications.dialog.languageHint')}
            data={CHANNEL_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
            value={form.language}
            onChange={(next) => next && update({ ...form, language: next as ChannelForm['language'] })}
            allowDeselect={false}
            data-testid="channel-language"
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Switch
          label={t('notifications.dialog.enabled')}
          checked={form.enabled}
          onChange={(event) => update({ ...form, enabled: event.currentTarget.checked })}
          data-testid="channel-enabled"
        />

        {inputFields(form.type).map((field) => (
          <FieldInput
            key={`${form.type}-${field.name}`}
            type={form.type}
            field={field}
            value={form.fields[field.name] ?? ''}
            onChange={(value) => setField(field.name, value)}
            error={fieldError(field.name)}
            keptHint={editing ? keptHint(isSecretField(field), form.fields[field.name] ?? '') : undefined}
          />
        ))}

        {mapField(form.type) && (
          <Stack gap="xs" data-testid="channel-headers">
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                {t(`notifications.fields.${form.type}.${mapField(form.type)?.name}` as 'notifications.fields.webhook.headers')}
              </Text>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPlus size={14} />}
                onClick={() => update({ ...form, headers: [...form.headers, { name: '', value: '' }] }, 'headers')}
                data-testid="channel-header-add"
              >
                {t('notifications.dialog.addHeader')}
              </Button>
            </Group>
            {form.headers.map((row, index) => (
              <Group key={index} gap="xs" wrap="nowrap">
                <TextInput
                  placeholder="Authorization"
                  aria-label={t('notifications.dialog.headerName')}
                  value={row.name}
                  onChange={(event) => {
                    const headers = form.headers.map((item, at) => (at === index ? { ...item, name: event.currentTarget.value } : item));
                    update({ ...form, headers }, 'headers');
                  }}
                  style={{ flex: 1 }}
                />
                <PasswordInput
                  placeholder="Bearer …"
                  aria-label={t('notifications.dialog.headerValue')}
                  value={row.value}
                  onChange={(event) => {
                    const headers = form.headers.map((item, at) => (at === index ? { ...item, value: event.currentTarget.value } : item));
                    update({ ...form, headers }, 'headers');
                  }}
                  style={{ flex: 2 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('notifications.dialog.removeHeader')}
                  onClick={() => update({ ...form, headers: form.headers.filter((_, at) => at !== index) }, 'headers')}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            {errors.headers && (
              <Text size="xs" c="red">
                {fieldError('headers')}
              </Text>
            )}
          </Stack>
        )}

        <ChannelGroupingFields
          wait={form.groupWaitSeconds}
          interval={form.groupIntervalSeconds}
          onChange={(patch) => update({ ...form, ...patch }, Object.keys(patch)[0])}
          errors={{ wait: fieldError('groupWaitSeconds'), interval: fieldError('groupIntervalSeconds') }}
        />

        {testResult && (
          <Alert color={testResult.ok ? 'green' : 'red'} variant="light" data-testid="channel-test-result" role="status">
            {testResult.text}
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" role="alert" data-testid="channel-error">
            {failure}
          </Alert>
        )}

        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconSend size={16} />}
            onClick={() => void sendTest()}
            loading={testing}
            disabled={saving}
            data-testid="channel-test"
          >
            {t('notifications.dialog.sendTest')}
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={saving} data-testid="channel-save">
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
