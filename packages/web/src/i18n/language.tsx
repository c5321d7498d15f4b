/**
 * The web portal's language (docs/web.md, Languages): the user's choice on Account, else the first
 * language of the browser's list that the portal speaks, else the portal's DEFAULT_LANGUAGE
 * (`GET /loginoptions`). Sets `lang` on <html> and gives every screen react-intl's messages.
 */
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { languageFor, negotiateLanguage, type Language } from '@tools-portal/core/languages';
import { useBranding } from '../branding';
import { formatIn } from '../logic/format';
import { useSession } from '../session';
import { de } from './de';
import { en, type MessageKey } from './en';

const CATALOGUES: Record<Language, Record<MessageKey, string>> = { en, de };

interface LanguageState {
  /** The language the portal speaks now. */
  language: Language;
  /** The signed-in user's choice; null: the browser decides (and anonymous readers). */
  choice: Language | null;
  /** What the browser alone would give: its first supported language, else DEFAULT_LANGUAGE. */
  browserLanguage: Language;
}

const LanguageContext = createContext<LanguageState | null>(null);

const browserList = () => (typeof navigator === 'undefined' ? [] : navigator.languages);

export function LanguageProvider({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const choice = state.status === 'user' ? (state.user.language ?? null) : null;
  const fromBrowser = negotiateLanguage(browserList().join(','));
  // The portal's default, from the one read of /loginoptions (branding.tsx).
  const { defaultLanguage } = useBranding();
  const browserLanguage = fromBrowser ?? defaultLanguage;
  const language = languageFor({ choice, fallback: browserLanguage });
  // Before the screens render: their dates and numbers follow the language (logic/format.ts).
  formatIn(language);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const value = useMemo(() => ({ language, choice, browserLanguage }), [language, choice, browserLanguage]);
  return (
    <LanguageContext.Provider value={value}>
      <IntlProvider locale={language} defaultLocale="en" messages={CATALOGUES[language]}>
        {children}
      </IntlProvider>
    </LanguageContext.Provider>
  );
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage outside LanguageProvider');
  return state;
}
