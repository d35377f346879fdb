import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { Footer } from './Footer';

describe('Footer', () => {
  it('shows the copyright line with the current year', () => {
    renderWithProviders(<Footer />);
    expect(screen.getByTestId('footer')).toHaveTextContent(`© ${new Date().getFullYear()} Vigil`);
  });

  it('links to the blog, the video channel and the temporary-mail service in new tabs without opener access', () => {
    renderWithProviders(<Footer />);
    const links = within(screen.getByTestId('footer')).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Blog', 'Video channel', 'Temporary mail']);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
    }
  });
});
