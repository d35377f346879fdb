import { TextInput } from '@mantine/core';
import { IconTag } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * The list's tag filter: one exact tag (`env:prod`), applied on Enter or when the field is left, since a tag is matched
 * whole rather than searched. A tag set elsewhere (a badge's link) replaces what the field shows.
 */
export function TagFilter({ tag, onTag, label }: { tag: string; onTag: (tag: string) => void; label: string }) {
  const [typed, setTyped] = useState(tag);
  const [shown, setShown] = useState(tag);
  if (shown !== tag) {
    setShown(tag);
    setTyped(tag);
  }
  const apply = () => {
    if (typed.trim() !== tag) onTag(typed.trim());
  };
  return (
    <TextInput
      value={typed}
      onChange={(event) => setTyped(event.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
      }}
      placeholder={label}
      aria-label={label}
      leftSection={<IconTag size={16} />}
      w={200}
      data-testid="monitor-tag-filter"
    />
  );
}
