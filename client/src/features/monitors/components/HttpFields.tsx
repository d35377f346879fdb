import { NativeSelect, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { HTTP_METHODS, type HttpMethod, SECRET_MASK } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { type FieldGroupProps, methodHasBody } from '../form';
import { expectedStatusOptions } from '../format';
import { HeaderRowsInput } from './HeaderRowsInput';

/** The URL field of HTTP and WebSocket monitors; saved credentials in it read back masked and are kept. */
export function UrlField({ values, set, fieldError, websocket = false }: FieldGroupProps & { websocket?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextInput
      name="url"
      type="url"
      label={t('monitor.form.url')}
      placeholder={websocket ? t('monitor.form.wsUrlPlaceholder') : t('monitor.form.urlPlaceholder')}
      withAsterisk
      autoComplete="off"
      value={values.url}
      description={values.url.includes(SECRET_MASK) ? t('monitor.form.urlSecretKept') : undefined}
      error={fieldError('url')}
      onChange={(event) => set('url', event.currentTarget.value)}
    />
  );
}

/** HTTP's request: URL, method, expected status, headers, and the body for methods that send one. */
export function HttpFields(props: FieldGroupProps) {
  const { t } = useTranslation();
  const { values, set, fieldError } = props;
  return (
    <>
      <UrlField {...props} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NativeSelect
          name="method"
          label={t('monitor.form.method')}
          description={t('monitor.form.methodDescription')}
          withAsterisk
          data={[...HTTP_METHODS]}
          value={values.method}
          onChange={(event) => set('method', event.currentTarget.value as HttpMethod)}
        />
        <NativeSelect
          name="expectedStatus"
          label={t('monitor.form.expectedStatus')}
          description={t('monitor.form.expectedStatusDescription')}
          withAsterisk
          data={expectedStatusOptions(values.expectedStatus)}
          value={String(values.expectedStatus)}
          onChange={(event) => set('expectedStatus', Number(event.currentTarget.value))}
        />
      </SimpleGrid>
      <HeaderRowsInput rows={values.headers} onChange={(rows) => set('headers', rows)} error={fieldError('headers')} />
      {methodHasBody(values.method) && (
        <Textarea
          name="body"
          label={t('monitor.form.body')}
          description={t('monitor.form.bodyDescription')}
          autosize
          minRows={3}
          maxRows={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={values.body}
          error={fieldError('body')}
          onChange={(event) => set('body', event.currentTarget.value)}
        />
      )}
    </>
  );
}
