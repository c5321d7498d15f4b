import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from './support.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await startTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

it('serves the web portal at /auth/ and sends / and /auth there', async () => {
  const entry = await portal.fetch('/auth/', { redirect: 'manual' });
  expect(entry.status).toBe(200);
  expect(await entry.text()).toContain('Tools-Server');
  for (const path of ['/', '/auth']) {
    const response = await portal.fetch(path, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/auth/');
  }
});
