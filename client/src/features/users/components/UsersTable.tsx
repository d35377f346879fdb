import { ActionIcon, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { UserDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { userEditPath } from '../../../routes/paths';

interface UsersTableProps {
  users: UserDto[];
  currentUserId: number | null;
  onDelete: (user: UserDto) => void;
}

/** ID, username, email or '-', role and the edit/delete actions (spec section 2, "User management"). */
export function UsersTable({ users, currentUserId, onDelete }: UsersTableProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={80}>{t('users.columns.id')}</Table.Th>
            <Table.Th>{t('users.columns.username')}</Table.Th>
            <Table.Th>{t('users.columns.email')}</Table.Th>
            <Table.Th>{t('users.columns.role')}</Table.Th>
            <Table.Th w={110}>{t('users.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => {
            const self = user.id === currentUserId;
            return (
              <Table.Tr key={user.id} data-testid={`users-row-${user.id}`}>
                <Table.Td>{user.id}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={500}>
                      {user.username}
                    </Text>
                    {self && (
                      <Text size="xs" c="dimmed">
                        ({t('common.you')})
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{user.email || t('common.empty')}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={user.role === 'admin' ? 'grape' : 'gray'}>
                    {t(`users.roles.${user.role}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={t('users.edit')}>
                      <ActionIcon
                        component={Link}
                        to={userEditPath(user.id)}
                        variant="subtle"
                        aria-label={`${t('users.edit')} ${user.username}`}
                        data-testid={`users-edit-${user.id}`}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('users.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        // The server refuses self-deletion; the button says so up front.
                        disabled={self}
                        onClick={() => onDelete(user)}
                        aria-label={`${t('users.delete')} ${user.username}`}
                        data-testid={`users-delete-${user.id}`}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
