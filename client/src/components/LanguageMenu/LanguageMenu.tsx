import { lazy } from 'react';
import { DeferredMenu } from '../DeferredMenu/DeferredMenu';
import { LanguageButton } from './LanguageButton';

const loadDropdown = () => import('./LanguageMenuDropdown');
const LanguageMenuDropdown = lazy(loadDropdown);

/** Language switcher shown to everyone; the choice is remembered in local storage. */
export function LanguageMenu() {
  return (
    <DeferredMenu
      trigger={(events) => <LanguageButton {...events} />}
      preload={loadDropdown}
      menu={() => <LanguageMenuDropdown defaultOpened />}
    />
  );
}
