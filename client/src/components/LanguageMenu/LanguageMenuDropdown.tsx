import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES } from '../../i18n/languages';
import { LanguageButton } from './LanguageButton';

/** The language menu itself, loaded when its button is first pressed (LanguageMenu). */
export default function LanguageMenuDropdown({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <LanguageButton />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.language')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            data-testid={`language-option-${language}`}
            rightSection={language === current ? <IconCheck size={14} /> : null}
            onClick={() => void changeLanguage(language)}
          >
            {t(`languages.${language}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
