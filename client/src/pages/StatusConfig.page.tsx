import { Button, Group, Stack, Switch, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import {
  IconAdjustments,
  IconBrush,
  IconDeviceDesktop,
  IconDeviceFloppy,
  IconExternalLink,
  IconServer,
  IconSettings,
  IconWorldWww,
} from '@tabler/icons-react';
import { DEFAULT_PAGE_SLUG, STATUS_LIMITS } from '@vigil/proto';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { ApiError } from '../api/http';
import { notify, TOAST_MS } from '../app/notify';
import { CopyValueButton } from '../components/CopyValueButton/CopyValueButton';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { ReadOnlyNotice } from '../components/ReadOnlyNotice/ReadOnlyNotice';
import { selectCanWrite, selectIsAdmin, useAuthStore } from '../features/auth/store';
import { BadgeCopyButton } from '../features/status/components/BadgeCopyButton';
import { SelectionList } from '../features/status/components/SelectionList';
import { type ConfigField, fieldOfCode, useStatusConfigStore, validateConfig } from '../features/status/configStore';
import { STATUS_PAGE_CLASS } from '../public/customCss';
import { DisplayKeysPanel } from '../features/wall/components/DisplayKeysPanel';
import { PATHS, statusPageEditPath } from '../routes/paths';

type Tab = 'general' | 'services' | 'agents' | 'appearance' | 'wall';

/** The tab holding each field, to open it when its value is refused. */
const FIELD_TABS: Record<ConfigField, Tab> = { title: 'general', description: 'general', logoUrl: 'appearance', customCss: 'appearance' };

export default function StatusConfigPage() {
  const { t } = useTranslation();
  const admin = useAuthStore(selectIsAdmin);
  // A viewer sees the configuration as it is; the fields are read-only and nothing offers a save.
  const canWrite = useAuthStore(selectCanWrite);
  const readOnly = !canWrite;
  const { status, error, form, items, selected, load, setField, toggle, setMany, save } = useStatusConfigStore(
    useShallow((state) => ({
      status: state.status,
      error: state.error,
      form: state.form,
      items: state.items,
      selected: state.selected,
      load: state.load,
      setField: state.setField,
      toggle: state.toggle,
      setMany: state.setMany,
      save: state.save,
    })),
  );
  const [tab, setTab] = useState<Tab>('general');
  const [errors, setErrors] = useState<Partial<Record<ConfigField, string>>>({});
  const [saving, setSaving] = useState(false);
  // The default title in the language of the visit's start: a language switch must not reload and drop edits.
  const defaultTitle = useRef(t('statusPage.title'));
  const publicUrl = `${window.location.origin}${PATHS.status}`;

  // Once per visit (spec section 2): nothing the screen changes reads it again.
  useEffect(() => {
    void load(defaultTitle.current);
  }, [load]);

  function change<K extends keyof typeof form>(key: K, value: (typeof form)[K]) {
    setField(key, value);
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  }

  async function submit() {
    const found = validateConfig(form);
    setErrors(found);
    const first = (Object.keys(found) as ConfigField[])[0];
    if (first) {
      setTab(FIELD_TABS[first]);
      notify.error(t(found[first] as 'server.status.titleRequired'));
      return;
    }
    setSaving(true);
    try {
      await save();
      notify.success(t('server.status.saved'), undefined, TOAST_MS);
    } catch (failure) {
      // The server's CSS and logo rules (scoping, allowed origins) are only known there: show them on the field.
      const field = failure instanceof ApiError ? fieldOfCode(failure.code) : null;
      if (field && failure instanceof ApiError) {
        setErrors({ [field]: `server.${failure.code}` });
        setTab(FIELD_TABS[field]);
      }
      notify.error(errorText(t, failure, t('server.status.saveFailed')));
    } finally {
      setSaving(false);
    }
  }

  const fieldError = (field: ConfigField) => (errors[field] ? t(errors[field] as 'server.status.titleRequired') : undefined);

  return (
    <Stack gap="lg" data-testid="status-config">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('statusConfig.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('statusConfig.subtitle')}
          </Text>
        </div>
        <Group gap="sm">
          {canWrite && (
            <Button
              component={Link}
              to={statusPageEditPath(DEFAULT_PAGE_SLUG)}
              variant="default"
              leftSection={<IconAdjustments size={16} />}
              data-testid="status-config-full-editor"
            >
              {t('statusConfig.fullEditor')}
            </Button>
          )}
          <Button
            component="a"
            href={PATHS.status}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconExternalLink size={16} />}
            data-testid="status-config-preview"
          >
            {t('statusConfig.preview')}
          </Button>
          {canWrite && (
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => void submit()}
              loading={saving}
              disabled={status !== 'ready'}
              data-testid="status-config-save"
            >
              {t('common.save')}
            </Button>
          )}
        </Group>
      </Group>

      <ReadOnlyNotice />

      {status === 'error' && (
        <ErrorState message={errorText(t, error, t('statusConfig.loadError'))} onRetry={() => void load(defaultTitle.current)} />
      )}
      {(status === 'idle' || status === 'loading') && <LoadingState />}
      {status === 'ready' && (
        <Tabs value={tab} onChange={(next) => setTab((next as Tab) ?? 'general')} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="general" leftSection={<IconSettings size={16} />} data-testid="status-config-tab-general">
              {t('statusConfig.tabs.general')}
            </Tabs.Tab>
            <Tabs.Tab value="services" leftSection={<IconWorldWww size={16} />} data-testid="status-config-tab-services">
              {t('statusConfig.tabs.services')} ({selected.monitors.size})
            </Tabs.Tab>
            <Tabs.Tab value="agents" leftSection={<IconServer size={16} />} data-testid="status-config-tab-agents">
              {t('statusConfig.tabs.agents')} ({selected.agents.size})
            </Tabs.Tab>
            <Tabs.Tab value="appearance" leftSection={<IconBrush size={16} />} data-testid="status-config-tab-appearance">
              {t('statusConfig.tabs.appearance')}
            </Tabs.Tab>
            {admin && (
              <Tabs.Tab value="wall" leftSection={<IconDeviceDesktop size={16} />} data-testid="status-config-tab-wall">
                {t('statusConfig.tabs.wall')}
              </Tabs.Tab>
            )}
          </Tabs.List>

          <Tabs.Panel value="general">
            <Stack gap="md" maw={720}>
              <TextInput
                name="title"
                label={t('statusConfig.general.title')}
                required
                value={form.title}
                readOnly={readOnly}
                onChange={(event) => change('title', event.currentTarget.value)}
                error={fieldError('title')}
                maxLength={STATUS_LIMITS.titleMax}
              />
              <Textarea
                name="description"
                label={t('statusConfig.general.description')}
                value={form.description}
                readOnly={readOnly}
                onChange={(event) => change('description', event.currentTarget.value)}
                error={fieldError('description')}
                autosize
                minRows={3}
                maxRows={8}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('statusConfig.general.publicUrl')}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  <TextInput
                    value={publicUrl}
                    readOnly
                    aria-label={t('statusConfig.general.publicUrl')}
                    style={{ flex: 1 }}
                    data-testid="status-config-url"
                  />
                  <CopyValueButton value={publicUrl} label={t('statusConfig.general.copyUrl')} testId="status-config-copy-url" />
                </Group>
                <Text size="xs" c="dimmed">
                  {t('statusConfig.general.note')}
                </Text>
              </Stack>
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="services">
            <SelectionList
              items={items.monitors}
              selected={selected.monitors}
              onToggle={(id, on) => toggle('monitors', id, on)}
              onSetMany={(ids, on) => setMany('monitors', ids, on)}
              emptyText={t('statusConfig.items.noMonitors')}
              readOnly={readOnly}
              testId="status-config-monitors"
              extra={(item, isSelected) => (isSelected ? <BadgeCopyButton monitor={item} /> : null)}
            />
          </Tabs.Panel>

          <Tabs.Panel value="agents">
            <SelectionList
              items={items.agents}
              selected={selected.agents}
              onToggle={(id, on) => toggle('agents', id, on)}
              onSetMany={(ids, on) => setMany('agents', ids, on)}
              emptyText={t('statusConfig.items.noAgents')}
              readOnly={readOnly}
              testId="status-config-agents"
            />
          </Tabs.Panel>

          <Tabs.Panel value="appearance">
            <Stack gap="md" maw={720}>
              <TextInput
                name="logoUrl"
                label={t('statusConfig.appearance.logoUrl')}
                description={t('statusConfig.appearance.logoUrlDescription')}
                placeholder="https://example.com/logo.png"
                value={form.logoUrl}
                readOnly={readOnly}
                onChange={(event) => change('logoUrl', event.currentTarget.value)}
                error={fieldError('logoUrl')}
              />
              <Textarea
                name="customCss"
                label={t('statusConfig.appearance.customCss')}
                description={t('statusConfig.appearance.customCssDescription', { scope: `.${STATUS_PAGE_CLASS}` })}
                placeholder={`.${STATUS_PAGE_CLASS} h1 { color: #0b7285; }`}
                value={form.customCss}
                readOnly={readOnly}
                onChange={(event) => change('customCss', event.currentTarget.value)}
                error={fieldError('customCss')}
                autosize
                minRows={6}
                maxRows={20}
                spellCheck={false}
                styles={{ input: { fontFamily: 'monospace' } }}
              />
              <Switch
                name="showResources"
                label={t('statusConfig.appearance.showResources')}
                description={t('statusConfig.appearance.showResourcesDescription')}
                checked={form.showResources}
                disabled={readOnly}
                onChange={(event) => change('showResources', event.currentTarget.checked)}
                data-testid="status-config-show-resources"
              />
            </Stack>
          </Tabs.Panel>

          {admin && (
            <Tabs.Panel value="wall">
              <DisplayKeysPanel />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </Stack>
  );
}
