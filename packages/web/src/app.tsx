/** Every route of docs/product.md §2, on hash routes. */
import type { ReactNode } from 'react';
import { HashRouter, Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { AlertProvider } from './components/alerts';
import { LanguageProvider } from './i18n/language';
import { RequireAdmin, RequireUser } from './components/guards';
import { ConsoleFrame, Layout, PortalFrame } from './components/layout';
import {
  AccessRequests,
  AccessTokens,
  AppDetail,
  ClientDetail,
  Clients,
  Docs,
  Invites,
  Logs,
  ManageApps,
  ReviewDetail,
  Reviews,
  TeamDetail,
  Teams,
  UserDetail,
  Users,
  Webhooks,
} from './console/screens';
import { Account } from './screens/account';
import { AppList } from './screens/app-list';
import { Denied } from './screens/denied';
import { Device } from './screens/device';
import { FailedLogin } from './screens/failed-login';
import { Login } from './screens/login';
import { NotFound } from './screens/not-found';
import { OwnedApps } from './screens/owned-apps';
import { Requests } from './screens/requests';
import { ReviewsWaiting } from './screens/reviews-waiting';
import { ResetPassword, SetNewPassword } from './screens/reset-password';
import { UserApps } from './screens/user-apps';
import { paths } from './paths';
import { BrandingProvider } from './branding';
import { SessionProvider } from './session';

const user = (element: ReactNode) => <RequireUser>{element}</RequireUser>;
const admin = (element: ReactNode) => <RequireAdmin>{element}</RequireAdmin>;

const routes: RouteObject[] = [
  { path: paths.home, element: <Navigate to={paths.login} replace /> },
  { path: `${paths.login}/:redirect?/:token?`, element: <Login /> },
  { path: '/confirm/:redirect', element: <Login confirm="confirm" /> },
  { path: '/stepup/:redirect', element: <Login confirm="stepup" /> },
  { path: paths.failedLogin, element: <FailedLogin /> },
  { path: paths.resetPassword, element: <ResetPassword /> },
  { path: '/reset/:token', element: <SetNewPassword /> },
  { path: '/device/:code?', element: <Device /> },
  {
    element: <Layout />,
    children: [
      {
        element: <PortalFrame />,
        children: [
          { path: paths.appList, element: user(<AppList />) },
          { path: paths.apps, element: user(<AppList />) },
          { path: paths.userApps, element: user(<UserApps />) },
          { path: paths.account, element: user(<Account />) },
          { path: paths.requests, element: user(<Requests />) },
          { path: '/denied/:app?', element: user(<Denied />) },
          { path: paths.ownedApps, element: user(<OwnedApps />) },
          { path: paths.reviewsWaiting, element: user(<ReviewsWaiting />) },
          { path: '*', element: <NotFound /> },
        ],
      },
      {
        // The admin console: its sidebar for admins; everyone's own API keys and the help page's
        // non-admin note share the frame. Its screens load on demand (console/screens.ts).
        element: <ConsoleFrame />,
        children: [
          { path: paths.manageApps, element: admin(<ManageApps />) },
          { path: paths.accessTokens, element: user(<AccessTokens />) },
          { path: paths.docs, element: user(<Docs />) },
          { path: paths.accessRequests, element: admin(<AccessRequests />) },
          { path: paths.clients, element: admin(<Clients />) },
          { path: '/client/:id', element: admin(<ClientDetail />) },
          { path: '/app/:id', element: admin(<AppDetail />) },
          { path: paths.users, element: admin(<Users />) },
          { path: paths.teams, element: admin(<Teams />) },
          { path: '/team/:id', element: admin(<TeamDetail />) },
          { path: '/user/:id', element: admin(<UserDetail />) },
          { path: paths.invites, element: admin(<Invites />) },
          { path: paths.logs, element: admin(<Logs />) },
          { path: paths.webhooks, element: admin(<Webhooks />) },
          // Owners review their apps too: the server decides what each sees.
          { path: paths.reviews, element: user(<Reviews />) },
          { path: '/reviews/:id', element: user(<ReviewDetail />) },
        ],
      },
    ],
  },
];

// A declarative HashRouter, not a data router (createHashRouter): no loaders are used, and it
// keeps react-router's data-router code out of the bundle (its budget: test/browser/bundle.test.ts).
function Routes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <AlertProvider>
      <BrandingProvider>
        <SessionProvider>
          <LanguageProvider>
            <HashRouter>
              <Routes />
            </HashRouter>
          </LanguageProvider>
        </SessionProvider>
      </BrandingProvider>
    </AlertProvider>
  );
}
