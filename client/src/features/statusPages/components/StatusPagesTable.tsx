import { ActionIcon, Anchor, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconExternalLink, IconLock, IconTrash, IconWorld } from '@tabler/icons-react';
import { DEFAULT_PAGE_SLUG, type StatusPageSummary } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { statusPageEditPath } from '../../../routes/paths';
import { publicPagePath } from '../api';

interface StatusPagesTableProps {
  pages: StatusPageSummary[];
  canWrite: boolean;
  onDelete: (page: StatusPageSummary) => void;
}

/** Every page with its address, access and size; on a phone the title, components and actions only. */
export function StatusPagesTable({ pages, canWrite, onDelete }: StatusPagesTableProps) {
  const { t } = useTranslation();
  // The spec's page may have no title of its own: it is shown with the default one, as /status shows it.
  const titleOf = (page: StatusPageSummary) => page.title || (page.slug === DEFAULT_PAGE_SLUG ? t('statusPage.title') : page.slug);
  return (
    <Table striped highlightOnHover verticalSpacing="sm" data-testid="status-pages-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('statusPages.columns.title')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('statusPages.columns.domain')}</Table.Th>
          <Table.Th ta="right">{t('statusPages.columns.components')}</Table.Th>
          <Table.Th ta="right" visibleFrom="sm">
            {t('statusPages.columns.subscribers')}
          </Table.Th>
          <Table.Th w={1} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {pages.map((page) => (
          <Table.Tr key={page.slug} data-testid={`status-page-row-${page.slug}`}>
            <Table.Td style={{ wordBreak: 'break-word' }}>
              <Group gap={6} wrap="nowrap">
                {page.hasPassword && (
                  <Tooltip label={t('statusPages.protected')}>
                    <IconLock size={14} aria-label={t('statusPages.protected')} data-testid={`status-page-lock-${page.slug}`} />
                  </Tooltip>
                )}
                {canWrite ? (
                  <Anchor component={Link} to={statusPageEditPath(page.slug)} size="sm" fw={500}>
                    {titleOf(page)}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={500}>
                    {titleOf(page)}
                  </Text>
                )}
              </Group>
              <Text size="xs" c="dimmed" ff="monospace">
                {publicPagePath(page.slug)}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              {page.domain ? (
                <Group gap={4} wrap="nowrap">
                  <IconWorld size={14} />
                  <Text size="sm">{page.domain}</Text>
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('common.empty')}
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="right" ff="monospace" data-testid={`status-page-components-${page.slug}`}>
              {page.components}
            </Table.Td>
            <Table.Td ta="right" ff="monospace" visibleFrom="sm" data-testid={`status-page-subscribers-${page.slug}`}>
              {page.subscribers}
            </Table.Td>
            <Table.Td>
              <Group gap={2} wrap="nowrap" justify="flex-end">
                <Tooltip label={t('statusPages.open')}>
                  <ActionIcon
                    component="a"
                    href={publicPagePath(page.slug)}
                    target="_blank"
                    rel="noopener noreferrer"
                    variant="subtle"
                    aria-label={t('statusPages.open')}
                    data-testid={`status-page-open-${page.slug}`}
                  >
                    <IconExternalLink size={16} />
                  </ActionIcon>
                </Tooltip>
                {canWrite && (
                  <Tooltip label={t('common.edit')}>
                    <ActionIcon
                      component={Link}
                      to={statusPageEditPath(page.slug)}
                      variant="subtle"
                      aria-label={t('common.edit')}
                      data-testid={`status-page-edit-${page.slug}`}
                    >
                      <IconEdit size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {canWrite && page.slug !== DEFAULT_PAGE_SLUG && (
                  <Tooltip label={t('common.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => onDelete({ ...page, title: titleOf(page) })}
                      aria-label={t('common.delete')}
                      data-testid={`status-page-delete-${page.slug}`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
