import { Button, Group, Paper, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { type Role, ROLES, type UserDto } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { checkEmail, checkNewPassword, checkUsername } from '../../auth/validation';

export interface UserFormValues {
  username: string;
  email: string | null;
  role: Role;
  /** Empty on edit means "keep the current password". */
  password: string;
}

interface UserFormProps {
  /** The user being edited; absent when creating. */
  user?: UserDto;
  /** Editing one's own account: role and password are changed elsewhere (the profile), never by accident here. */
  self?: boolean;
  submitLabel: string;
  /** Resolves to an error text to show on the form, or null on success. */
  onSubmit: (values: UserFormValues) => Promise<string | null>;
  onCancel: () => void;
}

type FieldErrors = Partial<Record<'username' | 'email' | 'password', string>>;

/** The admin's form to create a user or edit one: username, email, role and a (new) password. */
export function UserForm({ user, self = false, submitLabel, onSubmit, onCancel }: UserFormProps) {
  const { t } = useTranslation();
  const editing = user !== undefined;
  const [username, setUsername] = useState(user?.username ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<Role>(user?.role ?? 'user');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const usernameCode = checkUsername(username);
    const emailCode = checkEmail(email, false);
    const passwordCode = editing && password === '' ? null : checkNewPassword(password);
    const nextErrors: FieldErrors = {
      username: usernameCode ? t(`server.${usernameCode}`) : undefined,
      email: emailCode ? t(`server.${emailCode}`) : undefined,
      password: passwordCode ? t(`server.${passwordCode}`) : undefined,
    };
    setErrors(nextErrors);
    if (usernameCode || emailCode || passwordCode) return;

    setSubmitting(true);
    setFormError(null);
    const error = await onSubmit({ username: username.trim(), email: email.trim() || null, role, password });
    setSubmitting(false);
    setFormError(error);
  }

  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <FormError message={formError} />
          <TextInput
            name="username"
            label={t('userForm.username')}
            autoComplete="off"
            withAsterisk
            value={username}
            error={errors.username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <TextInput
            name="email"
            type="email"
            label={t('userForm.email')}
            placeholder={t('userForm.emailPlaceholder')}
            autoComplete="off"
            value={email}
            error={errors.email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <Select
            name="role"
            label={t('userForm.role')}
            data={ROLES.map((value) => ({ value, label: t(`users.roles.${value}`) }))}
            description={t(`users.roleHints.${role}`)}
            value={role}
            allowDeselect={false}
            disabled={self}
            onChange={(value) => value && setRole(value as Role)}
            data-testid="user-role-select"
          />
          {self ? (
            <Text size="sm" c="dimmed">
              {t('userForm.selfHint')}
            </Text>
          ) : (
            <PasswordInput
              name="password"
              label={editing ? t('userForm.newPassword') : t('userForm.password')}
              description={editing ? t('userForm.newPasswordHint') : undefined}
              autoComplete="new-password"
              withAsterisk={!editing}
              value={password}
              error={errors.password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={submitting}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={submitting}>
              {submitting ? t('common.saving') : submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
