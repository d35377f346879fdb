import {
  Fieldset,
  Group,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DEFAULT_PAGE_SLUG, PAGE_HISTORY_DAYS, PAGE_THEMES, STATUS_PAGE_LIMITS, type NotificationChannelDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import type { PageErrors, PageForm, PasswordAction } from '../form';

interface PageSettingsFormProps {
  form: PageForm;
  errors: PageErrors;
  onChange: (patch: Partial<PageForm>) => void;
  /** SMTP channels that may mail subscribers; null while they are being read. */
  smtpChannels: NotificationChannelDto[] | null;
  /** The page as saved: its slug decides whether it is the default page. */
  savedSlug: string | null;
}

/** Every setting of a page but its components: text, look, access, drafts and subscriptions. */
export function PageSettingsForm({ form, errors, onChange, smtpChannels, savedSlug }: PageSettingsFormProps) {
  const { t } = useTranslation();
  const isDefault = savedSlug === DEFAULT_PAGE_SLUG;
  const error = (field: keyof PageErrors) => (errors[field] ? t(errors[field]) : undefined);
  const passwordActions: PasswordAction[] = form.hasPassword ? ['keep', 'set', 'clear'] : ['keep', 'set'];

  return (
    <Stack gap="lg" maw={820} data-testid="page-settings">
      <Fieldset legend={t('statusPages.settings.general')}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('statusPages.settings.slug')}
              description={isDefault ? t('statusPages.settings.slugDefault') : t('statusPages.settings.slugDescription')}
              required
              value={form.slug}
              disabled={isDefault}
              onChange={(event) => onChange({ slug: event.currentTarget.value })}
              error={error('slug')}
              data-testid="page-slug"
            />
            <TextInput
              label={t('statusPages.settings.title')}
              required
              value={form.title}
              maxLength={STATUS_PAGE_LIMITS.titleMax}
              onChange={(event) => onChange({ title: event.currentTarget.value })}
              error={error('title')}
              data-testid="page-title"
            />
          </SimpleGrid>
          <Textarea
            label={t('statusPages.settings.description')}
            value={form.description}
            maxLength={STATUS_PAGE_LIMITS.descriptionMax}
            onChange={(event) => onChange({ description: event.currentTarget.value })}
            autosize
            minRows={2}
            maxRows={6}
            data-testid="page-description"
          />
          <Textarea
            label={t('statusPages.settings.footer')}
            value={form.footer}
            maxLength={STATUS_PAGE_LIMITS.footerMax}
            onChange={(event) => onChange({ footer: event.currentTarget.value })}
            autosize
            minRows={1}
            maxRows={4}
            data-testid="page-footer"
          />
        </Stack>
      </Fieldset>

      <Fieldset legend={t('statusPages.settings.appearance')}>
        <Stack gap="sm">
          <TextInput
            label={t('statusPages.settings.logoUrl')}
            description={t('statusPages.settings.logoUrlDescription')}
            placeholder="https://example.com/logo.png"
            value={form.logoUrl}
            onChange={(event) => onChange({ logoUrl: event.currentTarget.value })}
            data-testid="page-logo"
          />
          <Group gap="xl" wrap="wrap">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('statusPages.settings.theme')}
              </Text>
              <SegmentedControl
                value={form.theme}
                onChange={(theme) => onChange({ theme: theme as PageForm['theme'] })}
                data={PAGE_THEMES.map((theme) => ({ value: theme, label: t(`statusPages.themes.${theme}`) }))}
                data-testid="page-theme"
              />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('statusPages.settings.historyDays')}
              </Text>
              <SegmentedControl
                value={String(form.historyDays)}
                onChange={(days) => onChange({ historyDays: Number(days) as PageForm['historyDays'] })}
                data={PAGE_HISTORY_DAYS.map((days) => ({ value: String(days), label: t('statusPages.settings.days', { count: days }) }))}
                data-testid="page-history"
              />
            </Stack>
          </Group>
          <Switch
            label={t('statusPages.settings.showAgentDetails')}
            description={t('statusPages.settings.showAgentDetailsDescription')}
            checked={form.showAgentDetails}
            onChange={(event) => onChange({ showAgentDetails: event.currentTarget.checked })}
            data-testid="page-agent-details"
          />
          <Switch
            label={t('statusPages.settings.showResources')}
            description={t('statusPages.settings.showResourcesDescription')}
            checked={form.showResources}
            onChange={(event) => onChange({ showResources: event.currentTarget.checked })}
            data-testid="page-resources"
          />
          <Textarea
            label={t('statusPages.settings.customCss')}
            description={t('statusPages.settings.customCssDescription')}
            value={form.customCss}
            onChange={(event) => onChange({ customCss: event.currentTarget.value })}
            autosize
            minRows={4}
            maxRows={16}
            spellCheck={false}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-testid="page-css"
          />
        </Stack>
      </Fieldset>

      <Fieldset legend={t('statusPages.settings.access')}>
        <Stack gap="sm">
          <TextInput
            label={t('statusPages.settings.domain')}
            description={t('statusPages.settings.domainDescription')}
            placeholder="status.example.com"
            value={form.domain}
            maxLength={STATUS_PAGE_LIMITS.domainMax}
            onChange={(event) => onChange({ domain: event.currentTarget.value })}
            data-testid="page-domain"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('statusPages.settings.password')}
            </Text>
            <Text size="xs" c="dimmed" data-testid="page-password-state">
              {form.hasPassword ? t('statusPages.settings.passwordSet') : t('statusPages.settings.passwordNone')}
            </Text>
            <SegmentedControl
              value={form.passwordAction}
              onChange={(action) => onChange({ passwordAction: action as PasswordAction, password: '' })}
              data={passwordActions.map((action) => ({ value: action, label: t(`statusPages.settings.passwordActions.${action}`) }))}
              style={{ alignSelf: 'flex-start' }}
              data-testid="page-password-action"
            />
            {form.passwordAction === 'set' && (
              <PasswordInput
                aria-label={t('statusPages.settings.newPassword')}
                placeholder={t('statusPages.settings.newPassword')}
                value={form.password}
                maxLength={STATUS_PAGE_LIMITS.passwordMax}
                onChange={(event) => onChange({ password: event.currentTarget.value })}
                error={error('password')}
                autoComplete="new-password"
                data-testid="page-password"
              />
            )}
          </Stack>
        </Stack>
      </Fieldset>

      <Fieldset legend={t('statusPages.settings.incidents')}>
        <Stack gap="sm">
          <Switch
            label={t('statusPages.settings.drafts')}
            description={t('statusPages.settings.draftsDescription')}
            checked={form.draftEnabled}
            onChange={(event) => onChange({ draftEnabled: event.currentTarget.checked })}
            data-testid="page-drafts"
          />
          {form.draftEnabled && (
            <NumberInput
              label={t('statusPages.settings.draftMinutes')}
              min={1}
              max={STATUS_PAGE_LIMITS.draftAfterMinutesMax}
              allowDecimal={false}
              value={form.draftAfterMinutes}
              onChange={(value) => onChange({ draftAfterMinutes: typeof value === 'number' ? value : Number.NaN })}
              error={error('draftAfterMinutes')}
              maw={220}
              data-testid="page-draft-minutes"
            />
          )}
        </Stack>
      </Fieldset>

      <Fieldset legend={t('statusPages.settings.subscriptions')}>
        <Stack gap="sm">
          <Select
            label={t('statusPages.settings.emailChannel')}
            description={
              smtpChannels && smtpChannels.length === 0
                ? t('statusPages.settings.emailChannelNone')
                : t('statusPages.settings.emailChannelDescription')
            }
            placeholder={smtpChannels === null ? t('common.loading') : t('statusPages.settings.emailOff')}
            data={[
              { value: '', label: t('statusPages.settings.emailOff') },
              ...(smtpChannels ?? []).map((channel) => ({ value: String(channel.id), label: channel.name })),
            ]}
            value={form.subscribeEmailChannelId === null ? '' : String(form.subscribeEmailChannelId)}
            onChange={(value) => onChange({ subscribeEmailChannelId: value ? Number(value) : null })}
            allowDeselect={false}
            maw={420}
            comboboxProps={{ withinPortal: true }}
            data-testid="page-email-channel"
          />
          <Switch
            label={t('statusPages.settings.webhooks')}
            description={t('statusPages.settings.webhooksDescription')}
            checked={form.subscribeWebhooks}
            onChange={(event) => onChange({ subscribeWebhooks: event.currentTarget.checked })}
            data-testid="page-webhooks"
          />
        </Stack>
      </Fieldset>
    </Stack>
  );
}
