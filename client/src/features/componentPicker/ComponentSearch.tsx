import { Button, Group, Loader, Pagination, Progress, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconListCheck, IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { allMatching, SEARCH_PAGE_SIZE, searchComponents, type SearchPage } from './api';
import { useComponentNames } from './names';
import { type PickKind, type PickOption, type PickedRef } from './refs';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

interface ComponentSearchProps {
  kinds: readonly PickKind[];
  isChosen: (ref: PickedRef) => boolean;
  onAdd: (options: PickOption[]) => void;
  disabled?: boolean;
  testId: string;
}

/** The answer to one search: which read it answers, and its page or failure. */
interface Answer {
  key: string;
  page: SearchPage | null;
  error: unknown;
}

/**
 * Finds monitors, agents or group monitors by name or target as the user types, one server page at a time, and adds
 * one of them or every match (read page by page with progress): built for 10,000 monitors, never a list of them all.
 */
export function ComponentSearch({ kinds, isChosen, onAdd, disabled, testId }: ComponentSearchProps) {
  const { t } = useTranslation();
  const learn = useComponentNames((state) => state.learn);
  const [kind, setKind] = useState<PickKind>(kinds[0]);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [progress, setProgress] = useState<{ read: number; total: number } | null>(null);
  const [addError, setAddError] = useState<unknown>(null);
  const adding = useRef<AbortController | null>(null);
  const key = `${kind}|${debounced}|${page}`;

  useEffect(() => {
    const controller = new AbortController();
    searchComponents(kind, debounced, page, SEARCH_PAGE_SIZE, controller.signal).then(
      (read) => {
        learn(read.options);
        setAnswer({ key, page: read, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ key, page: null, error });
      },
    );
    return () => controller.abort();
  }, [kind, debounced, page, key, learn]);
  useEffect(() => () => adding.current?.abort(), []);

  // Typed but not searched yet: what is shown is the previous search's, so it cannot be added as a whole.
  const typing = search.trim() !== debounced;
  const current = answer?.key === key && !typing ? answer : null;
  const shown = current?.page ?? answer?.page ?? null;
  const total = shown?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));

  async function addAll() {
    const controller = new AbortController();
    adding.current = controller;
    setAddError(null);
    setProgress({ read: 0, total });
    try {
      const options = await allMatching(kind, debounced, (read, of) => setProgress({ read, total: of }), controller.signal);
      learn(options);
      onAdd(options.filter((option) => !isChosen(option.ref)));
    } catch (error) {
      if (!controller.signal.aborted) setAddError(error);
    } finally {
      if (adding.current === controller) adding.current = null;
      setProgress(null);
    }
  }

  return (
    <Stack gap="xs" data-testid={testId}>
      <Group gap="sm" wrap="wrap" align="flex-end">
        {kinds.length > 1 && (
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(next) => {
              setKind(next as PickKind);
              setPage(1);
            }}
            data={kinds.map((value) => ({ value, label: t(`componentPicker.kinds.${value}`) }))}
            data-testid={`${testId}-kind`}
          />
        )}
        <TextInput
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          placeholder={t('componentPicker.search')}
          aria-label={t('componentPicker.search')}
          leftSection={<IconSearch size={16} />}
          rightSection={current ? null : <Loader size={14} />}
          style={{ flex: '1 1 200px' }}
          data-testid={`${testId}-search`}
        />
      </Group>

      {current?.error != null && (
        <Text size="sm" c="red" data-testid={`${testId}-error`}>
          {errorText(t, current.error, t('componentPicker.searchFailed'))}
        </Text>
      )}
      {shown && shown.options.length === 0 && current && (
        <Text size="sm" c="dimmed" data-testid={`${testId}-none`}>
          {t('componentPicker.nothingFound')}
        </Text>
      )}
      <Stack gap={4} style={{ opacity: current ? 1 : 0.6 }} data-testid={`${testId}-results`}>
        {shown?.options.map((option) => {
          const chosen = isChosen(option.ref);
          return (
            <Group key={`${option.ref.type}:${option.ref.id}`} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
                {option.name}
              </Text>
              <Button
                size="compact-xs"
                variant={chosen ? 'subtle' : 'light'}
                leftSection={chosen ? <IconCheck size={14} /> : <IconPlus size={14} />}
                disabled={chosen || disabled}
                onClick={() => onAdd([option])}
                data-testid={`${testId}-add-${option.ref.type}-${option.ref.id}`}
              >
                {chosen ? t('componentPicker.added') : t('componentPicker.add')}
              </Button>
            </Group>
          );
        })}
      </Stack>

      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="xs" c="dimmed" data-testid={`${testId}-total`}>
          {t('componentPicker.matching', { count: total })}
        </Text>
        {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} data-testid={`${testId}-pages`} />}
      </Group>
      {total > 0 && (
        <Button
          variant="default"
          size="xs"
          leftSection={<IconListCheck size={14} />}
          loading={progress !== null}
          disabled={disabled || !current}
          onClick={() => void addAll()}
          style={{ alignSelf: 'flex-start' }}
          data-testid={`${testId}-add-all`}
        >
          {t('componentPicker.addAll', { count: total })}
        </Button>
      )}
      {progress && (
        <Stack gap={2}>
          <Progress
            value={progress.total ? (progress.read / progress.total) * 100 : 0}
            animated
            aria-label={t('componentPicker.reading')}
          />
          <Text size="xs" c="dimmed" data-testid={`${testId}-progress`}>
            {t('componentPicker.readingProgress', { read: progress.read, total: progress.total })}
          </Text>
        </Stack>
      )}
      {addError != null && (
        <Text size="sm" c="red">
          {errorText(t, addError, t('componentPicker.searchFailed'))}
        </Text>
      )}
    </Stack>
  );
}
