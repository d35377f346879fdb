import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import { NOTIFICATION_EVENTS, TEMPLATE_LANGUAGES, TEMPLATE_LIMITS, type NotificationEvent, type TemplateLanguage } from '@vigil/proto';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { notificationsApi } from '../api';
import {
  eventLabel,
  insertVariable,
  isEvent,
  previewOf,
  templateProblems,
  templateRequest,
  variablesOf,
  type TemplateField,
  type TemplateForm,
} from '../templateForm';

/** Which template the dialog edits (`id` null: a new one, possibly a copy of a default) and its starting values. */
export type TemplateDialogState = { opened: false } | { opened: true; id: number | null; form: TemplateForm };

interface TemplateDialogProps {
  state: TemplateDialogState;
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit a custom template: the event's variables to click in, and a live preview in both languages. */
export function TemplateDialog({ state, onClose, onSaved }: TemplateDialogProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={state.opened}
      onClose={onClose}
      title={state.opened && state.id !== null ? t('notifications.templates.editTitle') : t('notifications.templates.createTitle')}
      size="xl"
      fullScreen={phone}
      centered
      data-testid="template-dialog"
    >
      {/* Mounted per opening, so each starts from its own values. */}
      {state.opened && <TemplateEditor id={state.id} initial={state.form} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function TemplateEditor({
  id,
  initial,
  onClose,
  onSaved,
}: { id: number | null; initial: TemplateForm } & Omit<TemplateDialogProps, 'state'>) {
  const { t } = useTranslation();
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  // Where a clicked variable goes: the text field the user was last in.
  const lastField = useRef<'subject' | 'content'>('content');

  const problems = templateProblems(form);
  const unknown = problems.flatMap((problem) => ('unknown' in problem ? problem.unknown : []));
  const errorOf = (field: TemplateField): string | undefined => {
    const problem = problems.find((p) => p.field === field && 'code' in p);
    if (problem && 'code' in problem && tried) return t(`server.${problem.code}` as 'server.notifications.templateNameRequired');
    if (field === 'content' && unknown.length) {
      return t('notifications.templates.unknownVariables', { names: unknown.map((name) => `{{${name}}}`).join(', ') });
    }
    return undefined;
  };

  function insert(name: string) {
    const field = lastField.current;
    const element = field === 'subject' ? subjectRef.current : contentRef.current;
    const text = form[field];
    const { text: next, caret } = insertVariable(text, name, element?.selectionStart ?? text.length, element?.selectionEnd ?? text.length);
    setForm({ ...form, [field]: next });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(caret, caret);
    });
  }

  async function save() {
    setTried(true);
    setFailure(null);
    if (problems.length) return;
    setSaving(true);
    try {
      const body = templateRequest(form);
      if (id === null) await notificationsApi.createTemplate(body);
      else await notificationsApi.updateTemplate(id, body);
      notify.success(t('server.notifications.templateSaved'));
      onSaved();
    } catch (error) {
      setFailure(errorText(t, error, t('server.notifications.templateSaveFailed')));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="md">
      <TextInput
        label={t('notifications.templates.name')}
        required
        value={form.name}
        maxLength={TEMPLATE_LIMITS.name}
        onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        error={errorOf('name')}
        data-testid="template-name"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('notifications.templates.event')}
          data={NOTIFICATION_EVENTS.map((event) => ({
            value: event,
            label: `${t(eventLabel(event) as 'notifications.templates.events.test')} (${event})`,
          }))}
          value={form.event}
          onChange={(value) => value && isEvent(value) && setForm({ ...form, event: value })}
          allowDeselect={false}
          data-testid="template-event"
        />
        <Select
          label={t('notifications.templates.language')}
          data={TEMPLATE_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
          value={form.language}
          onChange={(value) => value && setForm({ ...form, language: value as TemplateLanguage })}
          allowDeselect={false}
          data-testid="template-language"
        />
      </SimpleGrid>
      <TextInput
        ref={subjectRef}
        label={t('notifications.templates.subject')}
        required
        value={form.subject}
        maxLength={TEMPLATE_LIMITS.subject}
        onFocus={() => (lastField.current = 'subject')}
        onChange={(event) => setForm({ ...form, subject: event.currentTarget.value })}
        error={errorOf('subject')}
        data-testid="template-subject"
      />
      <Textarea
        ref={contentRef}
        label={t('notifications.templates.content')}
        required
        autosize
        minRows={5}
        maxRows={14}
        value={form.content}
        maxLength={TEMPLATE_LIMITS.content}
        onFocus={() => (lastField.current = 'content')}
        onChange={(event) => setForm({ ...form, content: event.currentTarget.value })}
        error={errorOf('content')}
        description={`${form.content.length} / ${TEMPLATE_LIMITS.content}`}
        data-testid="template-content"
      />
      <Variables event={form.event} onInsert={insert} />
      <Preview form={form} />
      {failure && (
        <Alert color="red" icon={<IconAlertCircle size={16} />} data-testid="template-failure">
          {failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button onClick={() => void save()} loading={saving} data-testid="template-save">
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The event's variables by their friendly names; a click puts `{{name}}` at the cursor. */
function Variables({ event, onInsert }: { event: NotificationEvent; onInsert: (name: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('notifications.templates.variables')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('notifications.templates.variablesHint')}
      </Text>
      <Group gap={6} data-testid="template-variables">
        {variablesOf(event).map(({ name, label }) => (
          <Tooltip key={name} label={`{{${name}}}`}>
            <Button
              size="compact-sm"
              variant="light"
              // Keeps the caret in the text field being edited.
              onMouseDown={(mouse) => mouse.preventDefault()}
              onClick={() => onInsert(name)}
              data-testid={`template-variable-${name}`}
            >
              {t(label as 'notifications.templates.vars.name')}
            </Button>
          </Tooltip>
        ))}
      </Group>
    </Stack>
  );
}

/** The message as it would read with example values, in both languages, rendered by the server's own renderer. */
function Preview({ form }: { form: TemplateForm }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<string | null>(form.language);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('notifications.templates.preview')}
      </Text>
      <Tabs value={language} onChange={setLanguage} variant="outline">
        <Tabs.List>
          {TEMPLATE_LANGUAGES.map((lang) => (
            <Tabs.Tab key={lang} value={lang}>
              {t(`languages.${lang}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TEMPLATE_LANGUAGES.map((lang) => {
          const preview = previewOf(form, lang);
          return (
            <Tabs.Panel key={lang} value={lang} pt="xs">
              <Paper withBorder p="sm" radius="sm" data-testid={`template-preview-${lang}`}>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {preview.subject}
                </Text>
                <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {preview.text}
                </Code>
              </Paper>
            </Tabs.Panel>
          );
        })}
      </Tabs>
    </Stack>
  );
}
