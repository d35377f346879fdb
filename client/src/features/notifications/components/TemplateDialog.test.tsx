import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { EMPTY_TEMPLATE } from '../templateForm';
import { TemplateDialog } from './TemplateDialog';

describe('TemplateDialog', () => {
  const fetchMock = vi.fn(() =>
    Promise.resolve(jsonResponse(201, { success: true, message: 'Notification template saved', data: { id: 1001 } })),
  );

  beforeEach(async () => {
    signIn(MEMBER);
    vi.stubGlobal('fetch', fetchMock);
    await i18n.changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  function open(onSaved = vi.fn()) {
    renderWithProviders(<TemplateDialog state={{ opened: true, id: null, form: EMPTY_TEMPLATE }} onClose={vi.fn()} onSaved={onSaved} />);
    return onSaved;
  }

  it('inserts a clicked variable at the cursor and previews it with example values in both languages', async () => {
    open();
    const content = screen.getByTestId('template-content') as HTMLTextAreaElement;
    fireEvent.change(content, { target: { value: 'Down: ' } });
    fireEvent.focus(content);
    content.setSelectionRange(6, 6);
    fireEvent.click(screen.getByTestId('template-variable-name'));
    expect(content.value).toBe('Down: {{name}}');
    expect(screen.getByTestId('template-preview-en-US').textContent).toContain('Down: Example API');
    expect(screen.getByTestId('template-variable-status_code').textContent).toBe('Status code');
  });

  it('names variables the event does not fill and sends nothing until the form is right', async () => {
    const onSaved = open();
    fireEvent.change(screen.getByTestId('template-name'), { target: { value: 'Pager' } });
    fireEvent.change(screen.getByTestId('template-subject'), { target: { value: '[P1] {{name}}' } });
    fireEvent.change(screen.getByTestId('template-content'), { target: { value: '{{password}}' } });
    expect(await screen.findByText('Variables this event does not fill: {{password}}')).toBeTruthy();
    fireEvent.click(screen.getByTestId('template-save'));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('template-content'), { target: { value: '{{name}} is down' } });
    fireEvent.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/notifications/templates');
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'Pager',
      event: 'monitor.down',
      language: 'zh-CN',
      subject: '[P1] {{name}}',
      content: '{{name}} is down',
    });
  });
});
