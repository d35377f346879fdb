import type { SubscribeRequest } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { pageApi, PageError } from '../api';
import { errorText } from '../errors';
import { useTexts } from '../i18n';

/** A password page: the visitor unlocks it (the server sets the page's cookie), then the page loads again with it. */
export function PasswordForm({ slug, reload }: { slug: string; reload: () => void }) {
  const { t } = useTexts();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await pageApi.unlock(slug, password);
      reload();
    } catch (failure) {
      const wrong = failure instanceof PageError && failure.code === 'statusPages.passwordWrong';
      setError(wrong ? t('locked.failed') : errorText(t, failure, t('locked.failed')));
      setBusy(false);
    }
  }

  return (
    <form className="vp-card vp-form" onSubmit={(event) => void submit(event)} data-testid="status-locked">
      <h2>{t('locked.title')}</h2>
      <p className="vp-muted">{t('locked.description')}</p>
      <label className="vp-field">
        <span>{t('locked.password')}</span>
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          data-testid="status-password"
        />
      </label>
      {error && (
        <p className="vp-error" role="alert" data-testid="status-password-error">
          {error}
        </p>
      )}
      <button type="submit" className="vp-button" disabled={busy || password === ''} data-testid="status-unlock">
        {t('locked.submit')}
      </button>
    </form>
  );
}

type Kind = keyof SubscribeRequest;

/** One subscription form: an email address or a webhook URL, answered with the server's message. */
function SubscribeField({ slug, kind }: { slug: string; kind: Kind }) {
  const { t } = useTexts();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const answer = await pageApi.subscribe(slug, { [kind]: value.trim() });
      setResult({ ok: true, text: answer.message || t('subscribe.sent') });
      setValue('');
    } catch (failure) {
      setResult({ ok: false, text: errorText(t, failure, t('subscribe.failed')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="vp-subscribe-row" onSubmit={(event) => void submit(event)} data-testid={`subscribe-${kind}-form`}>
      <label className="vp-field">
        <span>{kind === 'email' ? t('subscribe.email') : t('subscribe.webhook')}</span>
        <span className="vp-inline">
          <input
            type={kind === 'email' ? 'email' : 'url'}
            name={kind}
            required
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            placeholder={kind === 'email' ? 'name@example.com' : 'https://'}
            data-testid={`subscribe-${kind}`}
          />
          <button type="submit" className="vp-button" disabled={busy || value.trim() === ''} data-testid={`subscribe-${kind}-submit`}>
            {kind === 'email' ? t('subscribe.submitEmail') : t('subscribe.submitWebhook')}
          </button>
        </span>
      </label>
      {result && (
        <p className={result.ok ? 'vp-ok' : 'vp-error'} role="status" data-testid={`subscribe-${kind}-result`} data-ok={result.ok}>
          {result.text}
        </p>
      )}
    </form>
  );
}

/** The subscription forms the page offers. */
export function SubscribeForm({ slug, email, webhook }: { slug: string; email: boolean; webhook: boolean }) {
  const { t } = useTexts();
  if (!email && !webhook) return null;
  return (
    <section className="vp-section vp-card" data-testid="status-subscribe" aria-label={t('subscribe.title')}>
      <h2>{t('subscribe.title')}</h2>
      <p className="vp-muted">{t('subscribe.description')}</p>
      {email && <SubscribeField slug={slug} kind="email" />}
      {webhook && <SubscribeField slug={slug} kind="webhook" />}
    </section>
  );
}
