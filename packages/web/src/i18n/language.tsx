/**
 * The web portal's language (docs/web.md, Languages): the user's choice on Account, else the first
 * language of the browser's list that the portal speaks, else the portal's DEFAULT_LANGUAGE
 * (`GET /loginoptions`). Sets `lang` on <html> and gives every screen react-intl's messages.
 * English is part of the first visit's bundle; German loads the first time a reader needs it.
 */
import { createContext, useContext, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { languageFor, negotiateLanguage, type Language } from '@tools-portal/core/languages';
import { logFailure } from '../api';
import { useBranding } from '../branding';
import { formatIn } from '../logic/format';
import { useSession } from '../session';
import { en, type MessageKey } from './en';

type Catalogue = Record<MessageKey, string>;

const LOADERS: Record<Language, () => Promise<Catalogue>> = {
  en: () => Promise.resolve(en),
  de: () => import('./de').then((module) => module.de),
};

/** The catalogues at hand; a language whose catalogue failed to load is read in English. */
const loaded = new Map<Language, Catalogue>([['en', en]]);
const failed = new Set<Language>();
const loading = new Map<Language, Promise<void>>();

/** Loads a language's catalogue once per page, however many renders ask for it. */
function loadCatalogue(language: Language): Promise<void> {
  let promise = loading.get(language);
  if (!promise) {
    promise = LOADERS[language]().then(
      (catalogue) => void loaded.set(language, catalogue),
      (error: unknown) => {
        failed.add(language);
        logFailure(`load the ${language} words`, error);
      },
    );
    loading.set(language, promise);
  }
  return promise;
}

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
  const { defaultLanguage, loaded: brandingLoaded } = useBranding();
  const browserLanguage = fromBrowser ?? defaultLanguage;
  // Unknown while only the portal's default, not yet read, could decide: no words until then.
  const wanted = choice || fromBrowser || brandingLoaded ? languageFor({ choice, fallback: browserLanguage }) : null;

  const reader = state.status === 'user' ? state.user.id : null;
  const [shown, setShown] = useState<{ language: Language; reader: number | null } | null>(null);
  const [, settled] = useReducer((count: number) => count + 1, 0);
  let language: Language | null = null;
  if (wanted && loaded.has(wanted)) language = wanted;
  else if (wanted && failed.has(wanted)) language = 'en';
  // A user who changes the language on Account keeps the screen in the old words until the new
  // ones are there; anyone else sees no words until theirs are (no English flash for a German reader).
  else if (shown && reader !== null && shown.reader === reader) language = shown.language;
  if (language && (shown?.language !== language || shown.reader !== reader)) setShown({ language, reader });

  useEffect(() => {
    if (wanted && !loaded.has(wanted) && !failed.has(wanted)) void loadCatalogue(wanted).then(settled);
  }, [wanted]);

  // Before the screens render: their dates and numbers follow the language (logic/format.ts).
  if (language) formatIn(language);
  useEffect(() => {
    if (language) document.documentElement.lang = language;
  }, [language]);

  const value = useMemo(() => language && { language, choice, browserLanguage }, [language, choice, browserLanguage]);
  if (!value) return null;
  return (
    <LanguageContext.Provider value={value}>
      <IntlProvider locale={value.language} defaultLocale="en" messages={loaded.get(value.language)}>
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
