/** An app's description for the reader: German readers get `descriptionDe`, else (or when empty) `description`. */
import { useLanguage } from './language';

function describedFor(app: { description: string; descriptionDe?: string }, language: string): string {
  return language === 'de' && app.descriptionDe ? app.descriptionDe : app.description;
}

export function useDescription(): (app: { description: string; descriptionDe?: string }) => string {
  const { language } = useLanguage();
  return (app) => describedFor(app, language);
}
