import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { copyText } from './copyText';
import { CopyValueButton } from './CopyValueButton';

describe('copyText', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'execCommand');
  });

  it('uses the Clipboard API in a secure context', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    expect(await copyText('abc')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('abc');
  });

  it('falls back to a selection copy over plain http, where the Clipboard API is missing', async () => {
    vi.stubGlobal('isSecureContext', false);
    let selected = '';
    Object.defineProperty(document, 'execCommand', {
      configurable: true,
      value: vi.fn(() => {
        selected = (document.activeElement as HTMLTextAreaElement | null)?.value ?? document.querySelector('textarea')?.value ?? '';
        return true;
      }),
    });
    expect(await copyText('vgr_x')).toBe(true);
    expect(selected).toBe('vgr_x');
    expect(document.querySelector('textarea')).toBeNull();
  });
});

describe('CopyValueButton', () => {
  it('tells the user to copy by hand when the browser refuses', async () => {
    vi.stubGlobal('isSecureContext', false);
    Object.defineProperty(document, 'execCommand', { configurable: true, value: vi.fn(() => false) });
    renderWithProviders(<CopyValueButton value="x" testId="copy" />);
    await userEvent.click(screen.getByTestId('copy'));
    expect(await screen.findByText('Copying is not possible here: select the text and copy it by hand.')).toBeInTheDocument();
    expect(screen.getByTestId('copy')).toHaveTextContent(/^Copy$/);
    Reflect.deleteProperty(document, 'execCommand');
  });
});
