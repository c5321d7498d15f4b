/** The console's Security group, loaded as one part when one of its screens first shows (screens.ts). */
export { AccessTokens } from '../screens/access-tokens';
export { Logs } from '../screens/logs';
