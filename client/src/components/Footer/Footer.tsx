import { Anchor, Container, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './Footer.module.css';

/** External links of the footer (spec section 2); they open in a new tab without giving it access to this one. */
export const FOOTER_LINKS = [
  { key: 'footer.blog', href: 'https://blog.vigil-monitor.dev' },
  { key: 'footer.video', href: 'https://www.youtube.com/@vigil-monitor' },
  { key: 'footer.tempMail', href: 'https://mail.vigil-monitor.dev' },
] as const;

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className={classes.footer} data-testid="footer">
      <Container size="xl" className={classes.inner}>
        <Text size="sm" c="dimmed">
          {t('footer.copyright', { year })}
        </Text>
        <Group gap="md" component="nav">
          {FOOTER_LINKS.map((link) => (
            <Anchor key={link.key} href={link.href} target="_blank" rel="noopener noreferrer" size="sm" c="dimmed">
              {t(link.key)}
            </Anchor>
          ))}
        </Group>
      </Container>
    </footer>
  );
}
