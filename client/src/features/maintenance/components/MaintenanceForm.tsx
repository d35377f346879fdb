import { Button, Fieldset, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { MAINTENANCE_LIMITS, MAINTENANCE_STRATEGIES, type MaintenanceStrategy } from '@vigil/proto';
import { type FormEvent, memo, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { ComponentPicker } from '../../componentPicker/ComponentPicker';
import { PageSlugsSelect } from '../../statusPages/components/PageSlugsSelect';
import { type MaintenanceErrors, type MaintenanceForm as Form, validateMaintenance } from '../form';
import { timeZones } from '../zoned';
import { StrategyFields } from './StrategyFields';

interface MaintenanceFormProps {
  initial: Form;
  submitLabel: string;
  /** Saves; answers the failure to show, or null when saved. */
  onSubmit: (form: Form) => Promise<string | null>;
  onCancel: () => void;
}

const SCOPE_KINDS = ['monitor', 'agent', 'group'] as const;
/** Zones listed at once; typing narrows the rest down. */
const ZONES_SHOWN = 100;

// The heavy parts re-render only when their own value changes, not on every keystroke elsewhere in the form.
const ScopePicker = memo(ComponentPicker);
const PagesSelect = memo(PageSlugsSelect);

/** The zone picker: every zone the browser knows, searchable. */
const ZoneSelect = memo(function ZoneSelect({ value, onChange }: { value: string; onChange: (zone: string) => void }) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZones(), []);
  return (
    <Select
      label={t('maintenance.form.timezone')}
      data={zones}
      value={value}
      onChange={(zone) => zone && onChange(zone)}
      searchable
      allowDeselect={false}
      limit={ZONES_SHOWN}
      comboboxProps={{ withinPortal: true }}
      data-testid="maintenance-timezone"
    />
  );
});

/** A maintenance window: what, when (every strategy, in a zone), what it covers, where it shows and how it ends. */
export function MaintenanceForm({ initial, submitLabel, onSubmit, onCancel }: MaintenanceFormProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<MaintenanceErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = useCallback((patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch })), []);
  const setComponents = useCallback((components: Form['components']) => change({ components }), [change]);
  const setPages = useCallback((pages: string[]) => change({ pages }), [change]);
  const setTimezone = useCallback((timezone: string) => change({ timezone }), [change]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateMaintenance(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure(t('maintenance.validation.fix'));
      return;
    }
    setSaving(true);
    setFailure(await onSubmit(form));
    setSaving(false);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="maintenance-form">
      <Stack gap="lg" maw={960}>
        <FormError message={failure} />
        <TextInput
          label={t('maintenance.form.title')}
          required
          value={form.title}
          maxLength={MAINTENANCE_LIMITS.titleMax}
          onChange={(event) => change({ title: event.currentTarget.value })}
          error={errors.title ? t(errors.title) : undefined}
          data-testid="maintenance-title"
        />
        <Textarea
          label={t('maintenance.form.description')}
          description={t('maintenance.form.descriptionNote')}
          value={form.description}
          maxLength={MAINTENANCE_LIMITS.descriptionMax}
          onChange={(event) => change({ description: event.currentTarget.value })}
          autosize
          minRows={2}
          maxRows={10}
          data-testid="maintenance-description"
        />

        <Fieldset legend={t('maintenance.form.schedule')}>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('maintenance.form.strategy')}
                data={MAINTENANCE_STRATEGIES.map((strategy) => ({ value: strategy, label: t(`maintenance.strategies.${strategy}`) }))}
                value={form.strategy}
                onChange={(strategy) => strategy && change({ strategy: strategy as MaintenanceStrategy })}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                data-testid="maintenance-strategy"
              />
              <ZoneSelect value={form.timezone} onChange={setTimezone} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t(`maintenance.strategyHelp.${form.strategy}`)}
            </Text>
            <StrategyFields form={form} errors={errors} onChange={change} />
            {form.strategy !== 'manual' && (
              <Switch
                label={t('maintenance.form.enabled')}
                description={t('maintenance.form.enabledDescription')}
                checked={form.enabled}
                onChange={(event) => change({ enabled: event.currentTarget.checked })}
                data-testid="maintenance-enabled"
              />
            )}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('maintenance.form.scope')}>
          <Stack gap="sm">
            <Switch
              label={t('maintenance.form.scopeAll')}
              checked={form.scopeAll}
              onChange={(event) => change({ scopeAll: event.currentTarget.checked })}
              data-testid="maintenance-scope-all"
            />
            {!form.scopeAll && (
              <ScopePicker
                value={form.components}
                onChange={setComponents}
                kinds={SCOPE_KINDS}
                max={MAINTENANCE_LIMITS.idsMax}
                emptyText={t('maintenance.form.noComponents')}
                testId="maintenance-components"
              />
            )}
            {errors.scope && (
              <Text size="sm" c="red" data-testid="maintenance-scope-error">
                {t(errors.scope)}
              </Text>
            )}
          </Stack>
        </Fieldset>

        <PagesSelect
          value={form.pages}
          onChange={setPages}
          max={MAINTENANCE_LIMITS.pagesMax}
          description={t('maintenance.form.pagesDescription')}
          testId="maintenance-pages"
        />
        <Switch
          label={t('maintenance.form.notify')}
          description={t('maintenance.form.notifyDescription')}
          checked={form.notify}
          onChange={(event) => change({ notify: event.currentTarget.checked })}
          data-testid="maintenance-notify"
        />
        <Group gap="md" align="flex-end" wrap="wrap">
          <Switch
            label={t('maintenance.form.endWhenHealthy')}
            description={t('maintenance.form.endWhenHealthyDescription')}
            checked={form.endWhenHealthy}
            onChange={(event) => change({ endWhenHealthy: event.currentTarget.checked })}
            data-testid="maintenance-healthy"
          />
          {form.endWhenHealthy && (
            <NumberInput
              label={t('maintenance.form.healthyMinutes')}
              min={1}
              max={MAINTENANCE_LIMITS.endWhenHealthyMinutesMax}
              allowDecimal={false}
              value={form.endWhenHealthyMinutes}
              onChange={(value) => change({ endWhenHealthyMinutes: typeof value === 'number' ? value : Number.NaN })}
              error={errors.endWhenHealthyMinutes ? t(errors.endWhenHealthyMinutes) : undefined}
              maw={200}
              data-testid="maintenance-healthy-minutes"
            />
          )}
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="maintenance-submit">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
