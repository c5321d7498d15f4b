/** An app's icon, or its generated monogram when it has none (the letter is drawn by CSS). */
import type { App } from '@tools-portal/core/entities';
import { monogram } from '../logic/launcher';

export function AppIcon({ app }: { app: Pick<App, 'name' | 'icon'> }) {
  if (app.icon) return <img className="app-icon" src={app.icon} alt="" loading="lazy" />;
  const { letter, colour } = monogram(app.name);
  return <span className={`app-icon app-monogram monogram-${colour}`} data-letter={letter} aria-hidden="true" />;
}
