import { MultiSelect } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useRead } from '../../../api/useRead';
import { statusPagesApi } from '../api';

interface PageSlugsSelectProps {
  value: string[];
  onChange: (slugs: string[]) => void;
  max: number;
  description?: string;
  disabled?: boolean;
  testId: string;
}

/** The status pages something appears on, picked by title; the default page is `/status`. */
export function PageSlugsSelect({ value, onChange, max, description, disabled, testId }: PageSlugsSelectProps) {
  const { t } = useTranslation();
  const pages = useRead(useCallback((signal: AbortSignal) => statusPagesApi.list(signal), []));
  const known = pages.value?.pages ?? [];
  // Chosen slugs the list does not name (not read yet, or the read failed) still show, by slug.
  const data = [
    ...known.map((page) => ({ value: page.slug, label: `${page.title} (${page.slug})` })),
    ...value.filter((slug) => !known.some((page) => page.slug === slug)).map((slug) => ({ value: slug, label: slug })),
  ];
  return (
    <MultiSelect
      label={t('statusPages.pick.label')}
      description={description ?? t('statusPages.pick.description')}
      placeholder={value.length === 0 ? t('statusPages.pick.placeholder') : undefined}
      data={data}
      value={value}
      onChange={onChange}
      maxValues={max}
      searchable
      clearable
      disabled={disabled}
      nothingFoundMessage={pages.status === 'error' ? t('statusPages.loadError') : t('statusPages.pick.none')}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
