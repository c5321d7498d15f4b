// How tests start Debian's Chromium (the web's browser tests, once per run in their global setup;
// the OpenID single-page-app test, per file), and whether they can.
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_OPTIONS = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** Whether `what` can run; under CI a missing Chromium is a failure, not a skip. */
export function chromiumAvailableFor(what: string): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM}: ${what} cannot run under CI`);
  console.warn(`\n*** SKIPPING ${what}: no Chromium at ${CHROMIUM} (apt-get install -y chromium) ***\n`);
  return false;
}
