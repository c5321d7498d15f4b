/** The console's Directory group, loaded as one part when one of its screens first shows (screens.ts). */
export { ClientDetail } from '../screens/client-detail';
export { Clients } from '../screens/clients';
export { Invites } from '../screens/invites';
export { TeamDetail } from '../screens/team-detail';
export { Teams } from '../screens/teams';
export { UserDetail } from '../screens/user-detail';
export { Users } from '../screens/users';
