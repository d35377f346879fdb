import { Button, Group, Select, TextInput } from '@mantine/core';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditAction, type AuditTargetType } from '@vigil/proto';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditFilters } from '../api';

/** A date-time input's value (local time, minutes) as an ISO time, or undefined when empty. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** Filters of the audit log: applied together on submit, cleared at once. */
export function AuditFilterBar({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const { t } = useTranslation();
  const [action, setAction] = useState<string | null>(null);
  const [targetType, setTargetType] = useState<string | null>(null);
  const [targetId, setTargetId] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      action: (action as AuditAction | null) ?? undefined,
      targetType: (targetType as AuditTargetType | null) ?? undefined,
      targetId: targetId.trim() || undefined,
      actor: /^\d+$/.test(actor.trim()) ? Number(actor.trim()) : undefined,
      from: isoOf(from),
      to: isoOf(to),
    });
  };
  const clear = () => {
    setAction(null);
    setTargetType(null);
    setTargetId('');
    setActor('');
    setFrom('');
    setTo('');
    onApply({});
  };

  return (
    <form onSubmit={submit} data-testid="audit-filters">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('audit.filters.action')}
          placeholder={t('audit.filters.any')}
          data={AUDIT_ACTIONS.map((value) => ({ value, label: t(`audit.actions.${value}`) }))}
          value={action}
          onChange={setAction}
          searchable
          clearable
          w={{ base: '100%', sm: 220 }}
          data-testid="audit-filter-action"
        />
        <Select
          label={t('audit.filters.targetType')}
          placeholder={t('audit.filters.any')}
          data={AUDIT_TARGET_TYPES.map((value) => ({ value, label: t(`audit.targets.${value}`) }))}
          value={targetType}
          onChange={setTargetType}
          clearable
          w={{ base: '100%', sm: 180 }}
        />
        <TextInput
          label={t('audit.filters.targetId')}
          value={targetId}
          onChange={(e) => setTargetId(e.currentTarget.value)}
          w={{ base: '100%', sm: 120 }}
        />
        <TextInput
          label={t('audit.filters.actor')}
          value={actor}
          onChange={(e) => setActor(e.currentTarget.value)}
          inputMode="numeric"
          w={{ base: '100%', sm: 120 }}
        />
        <TextInput
          type="datetime-local"
          label={t('audit.filters.from')}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          w={{ base: '100%', sm: 200 }}
        />
        <TextInput
          type="datetime-local"
          label={t('audit.filters.to')}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          w={{ base: '100%', sm: 200 }}
        />
        <Group gap="xs">
          <Button type="submit" data-testid="audit-filter-apply">
            {t('audit.filters.apply')}
          </Button>
          <Button variant="default" onClick={clear}>
            {t('audit.filters.clear')}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
