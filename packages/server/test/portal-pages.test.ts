import { describe, expect, it } from 'vitest';
import { useTestPortal } from './support/support.js';

const portal = useTestPortal();

describe('the web portal mount', () => {
  it('redirects / and /auth to /auth/, which answers the page itself', async () => {
    for (const path of ['/', '/auth']) {
      const response = await portal.fetch(path, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/');
    }
    const index = await portal.fetch('/auth/', { redirect: 'manual' });
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Tools-Server</title>');
  });
});
