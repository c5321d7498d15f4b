/** Account's Language card: the portal's language and that of mail to the user, or the browser's (PUT /user/me). */
import { useState, type ChangeEvent } from 'react';
import { useIntl } from 'react-intl';
import { LANGUAGES, isLanguage, type Language } from '@tools-portal/core/languages';
import { api } from '../api';
import type { MessageKey } from '../i18n/en';
import { useLanguage } from '../i18n/language';
import { useSession } from '../session';
import { useAction } from './use-action';

const BROWSER = 'browser';

/** Each language by its name, in the reader's language. */
const NAMES = { en: 'language.name.en', de: 'language.name.de' } as const satisfies Record<Language, MessageKey>;

export function LanguageChoice() {
  const intl = useIntl();
  const { choice, browserLanguage } = useLanguage();
  const { reload } = useSession();
  const run = useAction();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<Language | null>(null);
  const name = (language: Language) => intl.formatMessage({ id: NAMES[language] });
  const choose = async (event: ChangeEvent<HTMLSelectElement>) => {
    const language = isLanguage(event.target.value) ? event.target.value : null;
    setBusy(true);
    await run({
      call: () => api.users.setLanguage(language),
      danger: intl.formatMessage({ id: 'language.failed' }),
      what: 'choose the language',
      onSuccess: async () => {
        await reload();
        setSaved(language ?? browserLanguage);
      },
    });
    setBusy(false);
  };

  return (
    <section className="card shadow-sm h-100" aria-labelledby="account-language">
      <div className="card-body">
        <h2 className="h5" id="account-language">
          {intl.formatMessage({ id: 'language.title' })}
        </h2>
        <label className="form-label" htmlFor="account-language-choice">
          {intl.formatMessage({ id: 'language.label' })}
        </label>
        <select id="account-language-choice" className="form-select" value={choice ?? BROWSER} onChange={(event) => void choose(event)} disabled={busy}>
          <option value={BROWSER}>{intl.formatMessage({ id: 'language.browser' }, { language: name(browserLanguage) })}</option>
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {name(language)}
            </option>
          ))}
        </select>
        <p className="form-text mb-0" role="status">
          {saved ? intl.formatMessage({ id: 'language.saved' }, { language: name(saved) }) : ''}
        </p>
      </div>
    </section>
  );
}
