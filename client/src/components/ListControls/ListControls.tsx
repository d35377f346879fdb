import { Group, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 300;

interface SearchInputProps {
  /** The search the list was last asked for. */
  search: string;
  onSearch: (search: string) => void;
  label: string;
  testId: string;
}

/** A list's search box: it asks again only once typing has paused. */
export function SearchInput({ search, onSearch, label, testId }: SearchInputProps) {
  const [typed, setTyped] = useState(search);
  // Called with the latest props once typing has paused; a text the list already shows asks nothing.
  const settled = useDebouncedCallback((text: string) => {
    if (text !== search) onSearch(text);
  }, SEARCH_DEBOUNCE_MS);

  return (
    <TextInput
      value={typed}
      onChange={(event) => {
        setTyped(event.currentTarget.value);
        settled(event.currentTarget.value);
      }}
      placeholder={label}
      aria-label={label}
      leftSection={<IconSearch size={16} />}
      w={260}
      data-testid={testId}
    />
  );
}

/** An icon-only segment of a view toggle, named for screen readers and on hover. */
export function IconSegmentLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={0} wrap="nowrap" title={text}>
      {icon}
      <VisuallyHidden>{text}</VisuallyHidden>
    </Group>
  );
}
