import { ActionIcon, Badge, Button, Group, Modal, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { STATUS_PAGE_LIMITS, type PageComponentRef, type StatusPageGroup } from '@vigil/proto';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/notify';
import { ComponentList } from '../../componentPicker/ComponentList';
import { ComponentSearch } from '../../componentPicker/ComponentSearch';
import {
  addGroup,
  addItems,
  changeGroup,
  clearItems,
  componentCount,
  componentKey,
  moveGroup,
  moveItem,
  pageKeys,
  removeGroup,
  removeItem,
} from '../form';

interface PageGroupsEditorProps {
  groups: StatusPageGroup[];
  onChange: (groups: StatusPageGroup[]) => void;
  error?: string;
}

const PAGE_KINDS = ['monitor', 'agent'] as const;

/** The page's ordered, named groups and their components, each group's items paged, added through a search. */
export function PageGroupsEditor({ groups, onChange, error }: PageGroupsEditorProps) {
  const { t } = useTranslation();
  const [addingTo, setAddingTo] = useState<number | null>(null);
  const keys = useMemo(() => pageKeys(groups), [groups]);
  const total = componentCount(groups);

  function add(index: number, refs: PageComponentRef[]) {
    const result = addItems(groups, index, refs);
    onChange(result.groups);
    if (result.dropped > 0) notify.error(t('statusPages.groups.tooMany', { max: STATUS_PAGE_LIMITS.componentsMax }));
    else if (result.added > 1 || result.present > 0) {
      notify.success(t('statusPages.groups.addedMany', { count: result.added, present: result.present }));
    }
  }

  return (
    <Stack gap="md" data-testid="page-groups">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="page-components-total">
          {t('statusPages.groups.summary', { groups: groups.length, components: total })}
        </Text>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          disabled={groups.length >= STATUS_PAGE_LIMITS.groupsMax}
          onClick={() => onChange(addGroup(groups, t('statusPages.groups.defaultName', { number: groups.length + 1 })))}
          data-testid="page-group-add"
        >
          {t('statusPages.groups.add')}
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="red" data-testid="page-groups-error">
          {error}
        </Text>
      )}
      {groups.length === 0 && (
        <Text c="dimmed" size="sm" data-testid="page-groups-empty">
          {t('statusPages.groups.empty')}
        </Text>
      )}
      {groups.map((group, index) => (
        <Paper key={index} withBorder radius="md" p="sm" data-testid={`page-group-${index}`}>
          <Stack gap="sm">
            <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
              <TextInput
                label={t('statusPages.groups.name')}
                value={group.name}
                maxLength={STATUS_PAGE_LIMITS.groupNameMax}
                onChange={(event) => onChange(changeGroup(groups, index, { name: event.currentTarget.value }))}
                error={group.name.trim() === '' ? t('statusPages.validation.groupName') : undefined}
                style={{ flex: '1 1 220px' }}
                data-testid={`page-group-${index}-name`}
              />
              <Group gap={4} wrap="nowrap">
                <Badge variant="light">{t('statusPages.groups.count', { count: group.items.length })}</Badge>
                <ActionIcon
                  variant="subtle"
                  disabled={index === 0}
                  onClick={() => onChange(moveGroup(groups, index, index - 1))}
                  aria-label={t('statusPages.groups.moveUp')}
                  data-testid={`page-group-${index}-up`}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  disabled={index === groups.length - 1}
                  onClick={() => onChange(moveGroup(groups, index, index + 1))}
                  aria-label={t('statusPages.groups.moveDown')}
                  data-testid={`page-group-${index}-down`}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => onChange(removeGroup(groups, index))}
                  aria-label={t('statusPages.groups.remove')}
                  data-testid={`page-group-${index}-remove`}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Group>
            <Switch
              label={t('statusPages.groups.collapsed')}
              checked={group.collapsed}
              onChange={(event) => onChange(changeGroup(groups, index, { collapsed: event.currentTarget.checked }))}
              data-testid={`page-group-${index}-collapsed`}
            />
            <ComponentList
              refs={group.items}
              onRemove={(item) => onChange(removeItem(groups, index, item))}
              onMove={(from, to) => onChange(moveItem(groups, index, from, to))}
              onClear={() => onChange(clearItems(groups, index))}
              emptyText={t('statusPages.groups.noComponents')}
              testId={`page-group-${index}-items`}
            />
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setAddingTo(index)}
              style={{ alignSelf: 'flex-start' }}
              data-testid={`page-group-${index}-add-components`}
            >
              {t('statusPages.groups.addComponents')}
            </Button>
          </Stack>
        </Paper>
      ))}

      <Modal
        opened={addingTo !== null && addingTo < groups.length}
        onClose={() => setAddingTo(null)}
        title={addingTo !== null ? t('statusPages.groups.addTo', { name: groups[addingTo]?.name ?? '' }) : ''}
        size="lg"
      >
        {addingTo !== null && (
          <ComponentSearch
            kinds={PAGE_KINDS}
            isChosen={(ref) => keys.has(componentKey(ref as PageComponentRef))}
            onAdd={(options) =>
              add(
                addingTo,
                options.map((option) => option.ref as PageComponentRef),
              )
            }
            testId="page-picker"
          />
        )}
      </Modal>
    </Stack>
  );
}
