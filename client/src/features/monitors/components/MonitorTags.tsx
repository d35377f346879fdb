import { Badge, Group } from '@mantine/core';
import { splitTag } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';

/** The monitor list filtered by one tag (`?tag=`, read by the list page). */
export const taggedListPath = (tag: string) => `${PATHS.monitors}?${new URLSearchParams({ tag }).toString()}`;

/** A monitor's tags as badges (`name: value`), each a link to the list of monitors carrying it. */
export function MonitorTags({ tags, testId }: { tags: readonly string[]; testId?: string }) {
  const { t } = useTranslation();
  if (!tags.length) return null;
  return (
    <Group gap={4} wrap="wrap" data-testid={testId}>
      {tags.map((tag) => {
        const { name, value } = splitTag(tag);
        return (
          <Badge
            key={tag}
            component={Link}
            to={taggedListPath(tag)}
            variant="light"
            color="gray"
            size="sm"
            radius="sm"
            tt="none"
            style={{ cursor: 'pointer', maxWidth: '100%' }}
            aria-label={t('monitors.tagFilter.show', { tag })}
          >
            {value === null ? name : `${name}: ${value}`}
          </Badge>
        );
      })}
    </Group>
  );
}
