import { Button, Group, Progress, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconComponents, IconDeviceFloppy, IconExternalLink, IconMail, IconSettings } from '@tabler/icons-react';
import { DEFAULT_PAGE_SLUG, type NotificationChannelDto, type StatusPageDto } from '@vigil/proto';
import { memo, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { FormError } from '../../../components/FormError/FormError';
import { statusPageEditPath } from '../../../routes/paths';
import { selectIsAdmin, useAuthStore } from '../../auth/store';
import { notificationsApi } from '../../notifications/api';
import { publicPagePath, statusPagesApi } from '../api';
import { useComponentNames } from '../../componentPicker/names';
import { componentCount, formOfPage, namedRefs, newPageForm, pageRequest, type PageErrors, type PageForm, validatePage } from '../form';
import { PageGroupsEditor } from './PageGroupsEditor';
import { PageSettingsForm } from './PageSettingsForm';
import { SubscribersPanel } from './SubscribersPanel';

type Tab = 'settings' | 'components' | 'subscribers';

// A page of 10,000 components: its groups re-render when they change, not on every keystroke in the settings.
const GroupsEditor = memo(PageGroupsEditor);

/** Reads the SMTP channels subscribers' mail may go through; an empty list when they cannot be read. */
function useSmtpChannels(): NotificationChannelDto[] | null {
  const [channels, setChannels] = useState<NotificationChannelDto[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    notificationsApi.read(controller.signal).then(
      (answer) => setChannels(answer.data.channels.filter((channel) => channel.type === 'smtp')),
      () => {
        if (!controller.signal.aborted) setChannels([]);
      },
    );
    return () => controller.abort();
  }, []);
  return channels;
}

/** Creates a page (`page` null) or edits one: settings, groups of components, and (admins) its subscribers. */
export function StatusPageEditor({ page }: { page: StatusPageDto | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const admin = useAuthStore(selectIsAdmin);
  const smtpChannels = useSmtpChannels();
  // The spec's page may have no title of its own: it starts from the default one, as /status/config does.
  const [form, setForm] = useState<PageForm>(() =>
    page ? { ...formOfPage(page), title: page.title || (page.slug === DEFAULT_PAGE_SLUG ? t('statusPage.title') : '') } : newPageForm(),
  );
  const [savedSlug, setSavedSlug] = useState<string | null>(page?.slug ?? null);
  const [tab, setTab] = useState<Tab>('settings');
  const [errors, setErrors] = useState<PageErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const components = componentCount(form.groups);
  const learn = useComponentNames((state) => state.learn);
  // The page's read names its components: the rows need no read of their own.
  useEffect(() => {
    if (page) learn(namedRefs(page));
  }, [page, learn]);

  const change = useCallback((patch: Partial<PageForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof PageErrors];
      return next;
    });
  }, []);
  const setGroups = useCallback((groups: PageForm['groups']) => change({ groups }), [change]);

  async function save() {
    const found = validatePage(form);
    setErrors(found);
    setFailure(null);
    const fields = Object.keys(found);
    if (fields.length > 0) {
      setTab(fields.length === 1 && found.groups ? 'components' : 'settings');
      notify.error(t('statusPages.validation.fix'));
      return;
    }
    setSaving(true);
    try {
      const body = pageRequest(form);
      const answer = savedSlug ? await statusPagesApi.update(savedSlug, body) : await statusPagesApi.create(body);
      setForm(formOfPage(answer.page));
      setSavedSlug(answer.page.slug);
      notify.success(savedSlug ? t('statusPages.saved') : t('statusPages.created'));
      if (answer.page.slug !== savedSlug) navigate(statusPageEditPath(answer.page.slug), { replace: true });
    } catch (error) {
      const text = errorText(t, error, t('statusPages.saveFailed'));
      setFailure(text);
      notify.error(text, t('statusPages.saveFailed'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="lg" data-testid="status-page-editor">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={2} data-testid="status-page-editor-title">
            {page ? t('statusPages.editTitle', { title: form.title || page.slug }) : t('statusPages.createTitle')}
          </Title>
          {savedSlug && (
            <Text size="sm" c="dimmed" ff="monospace">
              {publicPagePath(savedSlug)}
            </Text>
          )}
        </div>
        <Group gap="sm">
          {savedSlug && (
            <Button
              component="a"
              href={publicPagePath(savedSlug)}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              leftSection={<IconExternalLink size={16} />}
              data-testid="status-page-preview"
            >
              {t('statusPages.preview')}
            </Button>
          )}
          <Button leftSection={<IconDeviceFloppy size={16} />} loading={saving} onClick={() => void save()} data-testid="status-page-save">
            {savedSlug ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Group>

      {saving && (
        <Stack gap={4} data-testid="status-page-saving">
          <Progress value={100} striped animated aria-label={t('common.saving')} />
          <Text size="xs" c="dimmed">
            {t('statusPages.savingComponents', { count: components })}
          </Text>
        </Stack>
      )}
      <FormError message={failure} />

      <Tabs value={tab} onChange={(next) => setTab((next as Tab) ?? 'settings')}>
        <Tabs.List mb="md">
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} />} data-testid="status-page-tab-settings">
            {t('statusPages.tabs.settings')}
          </Tabs.Tab>
          <Tabs.Tab value="components" leftSection={<IconComponents size={16} />} data-testid="status-page-tab-components">
            {t('statusPages.tabs.components', { count: components })}
          </Tabs.Tab>
          {admin && savedSlug && (
            <Tabs.Tab value="subscribers" leftSection={<IconMail size={16} />} data-testid="status-page-tab-subscribers">
              {t('statusPages.tabs.subscribers')}
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="settings">
          <PageSettingsForm form={form} errors={errors} onChange={change} smtpChannels={smtpChannels} savedSlug={savedSlug} />
        </Tabs.Panel>
        <Tabs.Panel value="components">
          <GroupsEditor groups={form.groups} onChange={setGroups} error={errors.groups ? t(errors.groups) : undefined} />
        </Tabs.Panel>
        {admin && savedSlug && (
          <Tabs.Panel value="subscribers">{tab === 'subscribers' && <SubscribersPanel slug={savedSlug} />}</Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
