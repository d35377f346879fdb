import { Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage } from '../../i18n/languages';

/** The language menu's button: the current language's name (Menu.Target passes its ref and handlers). */
export function LanguageButton(props: ComponentPropsWithRef<'button'>) {
  const { t, i18n } = useTranslation();
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-sm"
      leftSection={<IconLanguage size={16} />}
      aria-label={t('nav.language')}
      data-testid="language-menu"
      {...props}
    >
      {t(`languages.${current}`)}
    </Button>
  );
}
