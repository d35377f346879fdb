import { Button, Fieldset, Group, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { INCIDENT_IMPACTS, INCIDENT_LIMITS, INCIDENT_STATUSES, type IncidentImpact, type IncidentStatus } from '@vigil/proto';
import { type FormEvent, memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { ComponentPicker } from '../../componentPicker/ComponentPicker';
import { PageSlugsSelect } from '../../statusPages/components/PageSlugsSelect';
import { type IncidentErrors, type IncidentForm as Form, validateIncident } from '../form';

interface IncidentFormProps {
  initial: Form;
  /** Creating opens the timeline with a status and a first message; editing changes the incident's own fields. */
  creating: boolean;
  submitLabel: string;
  /** Saves; answers the failure to show, or null when saved. */
  onSubmit: (form: Form) => Promise<string | null>;
  onCancel: () => void;
}

const INCIDENT_KINDS = ['monitor', 'agent'] as const;

// The picker and the pages re-render only when their own value changes, not on every keystroke elsewhere.
const ComponentsPicker = memo(ComponentPicker);
const PagesSelect = memo(PageSlugsSelect);

export function IncidentForm({ initial, creating, submitLabel, onSubmit, onCancel }: IncidentFormProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<IncidentErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = useCallback((patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch })), []);
  const setComponents = useCallback((components: Form['components']) => change({ components }), [change]);
  const setPages = useCallback((pages: string[]) => change({ pages }), [change]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateIncident(form, creating);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setFailure(await onSubmit(form));
    setSaving(false);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="incident-form">
      <Stack gap="lg" maw={960}>
        <FormError message={failure} />
        <TextInput
          label={t('incidents.form.title')}
          required
          value={form.title}
          maxLength={INCIDENT_LIMITS.titleMax}
          onChange={(event) => change({ title: event.currentTarget.value })}
          error={errors.title ? t(errors.title) : undefined}
          data-testid="incident-title"
        />
        <Group gap="xl" wrap="wrap" align="flex-start">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('incidents.form.impact')}
            </Text>
            <SegmentedControl
              value={form.impact}
              onChange={(impact) => change({ impact: impact as IncidentImpact })}
              data={INCIDENT_IMPACTS.map((impact) => ({ value: impact, label: t(`incidents.impacts.${impact}`) }))}
              data-testid="incident-impact"
            />
          </Stack>
          {creating && (
            <Select
              label={t('incidents.form.status')}
              data={INCIDENT_STATUSES.map((status) => ({ value: status, label: t(`incidents.statuses.${status}`) }))}
              value={form.status}
              onChange={(status) => status && change({ status: status as IncidentStatus })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-testid="incident-status"
            />
          )}
        </Group>
        {creating && (
          <Textarea
            label={t('incidents.form.message')}
            description={t('incidents.form.messageDescription')}
            required
            value={form.message}
            maxLength={INCIDENT_LIMITS.messageMax}
            onChange={(event) => change({ message: event.currentTarget.value })}
            error={errors.message ? t(errors.message) : undefined}
            autosize
            minRows={4}
            maxRows={16}
            data-testid="incident-message"
          />
        )}
        <Fieldset legend={t('incidents.form.components')}>
          <ComponentsPicker
            value={form.components}
            onChange={setComponents}
            kinds={INCIDENT_KINDS}
            max={INCIDENT_LIMITS.idsMax}
            emptyText={t('incidents.form.noComponents')}
            testId="incident-components"
          />
        </Fieldset>
        <PagesSelect value={form.pages} onChange={setPages} max={INCIDENT_LIMITS.pagesMax} testId="incident-pages" />
        <Switch
          label={t('incidents.form.published')}
          description={t('incidents.form.publishedDescription')}
          checked={form.published}
          onChange={(event) => change({ published: event.currentTarget.checked })}
          data-testid="incident-published"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="incident-submit">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
