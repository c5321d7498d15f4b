/**
 * The screen of the route inside a frame (layout.tsx). The console's screens load on demand
 * (console/screens.ts): meanwhile a spinner stands in for the first; when one screen replaces
 * another, the old one stays until the new one is there (the router changes routes in a React
 * transition). A part that cannot be loaded shows a danger alert instead of breaking the page;
 * other errors pass on as before.
 */
import { Component, Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { logFailure } from '../api';
import { PartLoadError } from '../console/screens';
import { useT } from '../i18n/use-t';
import { Loading } from './loading';

export function ScreenOutlet() {
  const { pathname } = useLocation();
  return (
    <UnloadedPart route={pathname}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </UnloadedPart>
  );
}

/** Catches a part that failed to load, until the route changes (the next screen tries again). */
class UnloadedPart extends Component<{ route: string; children: ReactNode }, { failed: unknown }> {
  override state: { failed: unknown } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error };
  }

  override componentDidCatch(error: unknown) {
    if (error instanceof PartLoadError) logFailure('load the screen', error.cause);
  }

  override componentDidUpdate(previous: { route: string }) {
    if (this.state.failed && previous.route !== this.props.route) this.setState({ failed: null });
  }

  override render() {
    const { failed } = this.state;
    if (!failed) return this.props.children;
    // Not a part that failed to load: on to the root, as without this boundary.
    if (!(failed instanceof PartLoadError)) throw failed;
    return <Unloaded />;
  }
}

function Unloaded() {
  const t = useT();
  return (
    <div className="alert alert-danger" role="alert">
      {t('common.screenFailed')}
    </div>
  );
}
