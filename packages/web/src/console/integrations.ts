/** The console's Integrations and Support groups, loaded as one part when one of their screens first shows (screens.ts). */
export { Docs } from '../screens/docs';
export { Webhooks } from '../screens/webhooks';
