/** The console's Access group, loaded as one part when one of its screens first shows (screens.ts). */
export { AccessRequests } from '../screens/access-requests';
export { AppDetail } from '../screens/app-detail';
export { ManageApps } from '../screens/manage-apps';
export { ReviewDetail } from '../screens/review-detail';
export { Reviews } from '../screens/reviews';
