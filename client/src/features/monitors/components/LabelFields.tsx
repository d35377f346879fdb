import { Switch, TagsInput, Textarea } from '@mantine/core';
import { isScheduled, MONITOR_LIMITS } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import type { FieldGroupProps } from '../form';

/**
 * What a monitor says about itself beside its check: a description (plain text), tags (`name` or `name:value`, as
 * Uptime Kuma's tag and value) and, for checked types, upside-down mode.
 */
export function LabelFields({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  return (
    <>
      <Textarea
        name="description"
        label={t('monitor.form.description')}
        description={t('monitor.form.descriptionHelp')}
        autosize
        minRows={2}
        maxRows={8}
        maxLength={MONITOR_LIMITS.descriptionMax}
        value={values.description}
        error={fieldError('description')}
        onChange={(event) => set('description', event.currentTarget.value)}
      />
      <TagsInput
        name="tags"
        label={t('monitor.form.tags')}
        description={t('monitor.form.tagsHelp')}
        placeholder={t('monitor.form.tagsPlaceholder')}
        maxTags={MONITOR_LIMITS.tagsMax}
        clearable
        value={values.tags}
        error={fieldError('tags')}
        onChange={(tags) => set('tags', tags)}
      />
      {/* A group's status is derived and a manual one's set by hand: there is no check to invert. */}
      {isScheduled(values.type) && (
        <Switch
          name="upsideDown"
          label={t('monitor.form.upsideDown')}
          description={t('monitor.form.upsideDownHelp')}
          checked={values.upsideDown}
          onChange={(event) => set('upsideDown', event.currentTarget.checked)}
          data-testid="monitor-upside-down"
        />
      )}
    </>
  );
}
