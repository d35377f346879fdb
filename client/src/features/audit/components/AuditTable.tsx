import { ActionIcon, Code, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { AuditChange, AuditEntryDto } from '@vigil/proto';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';

const shown = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Time, actor and action in three narrow columns, so a phone shows what matters without scrolling sideways; the
 * target sits under the action, and the changes open below the row.
 */
export function AuditTable({ entries }: { entries: AuditEntryDto[] }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const actorOf = (entry: AuditEntryDto) => {
    if (!entry.actor) return t('audit.nobody');
    const name = entry.actor.username ?? `#${entry.actor.userId}`;
    return entry.actor.apiKeyId !== null ? t('audit.viaKey', { name, id: entry.actor.apiKeyId }) : name;
  };
  const change = (value: AuditChange) => {
    if (value.secret) return t('audit.secretChanged');
    if (!('before' in value)) return shown(value.after);
    if (!('after' in value)) return t('audit.was', { value: shown(value.before) });
    return `${shown(value.before)} → ${shown(value.after)}`;
  };

  return (
    <Table verticalSpacing="xs" highlightOnHover data-testid="audit-table" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={32} />
          <Table.Th w="32%">{t('audit.columns.time')}</Table.Th>
          <Table.Th w="26%">{t('audit.columns.actor')}</Table.Th>
          <Table.Th>{t('audit.columns.action')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry) => {
          const expanded = open.has(entry.id);
          const changes = Object.entries(entry.changes ?? {});
          return (
            <Fragment key={entry.id}>
              <Table.Tr data-testid="audit-row" onClick={() => toggle(entry.id)} style={{ cursor: 'pointer' }}>
                <Table.Td>
                  <ActionIcon variant="subtle" size="sm" aria-label={t('audit.details')} aria-expanded={expanded}>
                    {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                  </ActionIcon>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDateTime(entry.at, i18n.language)}</Text>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm">{actorOf(entry)}</Text>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm" fw={500}>
                    {t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}
                  </Text>
                  {entry.target && (
                    <Text size="xs" c="dimmed">
                      {t(`audit.targets.${entry.target.type}`)} {entry.target.name ?? ''} {entry.target.id ? `#${entry.target.id}` : ''}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
              {expanded && (
                <Table.Tr data-testid="audit-details">
                  <Table.Td />
                  <Table.Td colSpan={3}>
                    <Stack gap={4}>
                      <Text size="xs" c="dimmed">
                        {t('audit.from', { ip: entry.ip ?? '—' })}
                      </Text>
                      {changes.length === 0 && (
                        <Text size="xs" c="dimmed">
                          {t('audit.noChanges')}
                        </Text>
                      )}
                      {changes.map(([field, value]) => (
                        <Text key={field} size="xs" style={{ overflowWrap: 'anywhere' }}>
                          <Code>{field}</Code> {change(value)}
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
