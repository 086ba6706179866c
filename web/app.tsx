import { useSignals } from "@preact/signals-react/runtime";
import { type ComponentType, type ReactNode, Suspense, useEffect } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { Footer } from "./shared/components/Footer.tsx";
import { FirstRunGate, RequireAdmin, RequireAuth } from "./shared/components/Guards.tsx";
import { NavBar } from "./shared/components/NavBar.tsx";
import { PublicUrlOffer } from "./features/settings/index.ts";
import { Spinner } from "./shared/components/Spinner.tsx";
import { Toasts } from "./shared/components/Toasts.tsx";
import { carryToasts } from "./shared/state/toasts.ts";
import { usePageTitle } from "./shared/components/usePageTitle.ts";
import { type Access, pageDescription, pageTitle, type RouteName, routes } from "./shared/paths.ts";
import { brandName } from "./shared/state/site.ts";

/** A screen per route; a route left out is not in this bundle (a public page's own: web/public/), and opening it
 * loads the page from the server. */
export type Screens = Partial<Record<RouteName, ComponentType<{ id?: string }>>>;

const guards: Record<Access, ComponentType<{ children: ReactNode }> | null> = {
  public: null,
  login: RequireAuth,
  admin: RequireAdmin,
};

/** A screen this bundle does not hold: the server sends its page (a public page's own bundle, or the app). The toasts
 * on screen go along (a login's "Welcome back"). */
function FullPageLoad() {
  useEffect(() => {
    carryToasts();
    location.reload();
  }, []);
  return <Spinner />;
}

function ScrollToTop() {
  const [location] = useLocation();
  // Block body: Chromium's scrollTo now returns a Promise, which React would call as the effect's cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/** One route's screen behind its guard, with the page's own title. */
function RouteScreen({ screens, name, id }: { screens: Screens; name: RouteName; id?: string }) {
  useSignals();
  usePageTitle(pageTitle(name, brandName.value), pageDescription(name));
  const Screen = screens[name] ?? FullPageLoad;
  const Guard = guards[routes[name].access];
  return (
    <FirstRunGate route={name}>
      <Suspense fallback={<Spinner />}>
        {Guard ? (
          <Guard>
            <Screen id={id} />
          </Guard>
        ) : (
          <Screen id={id} />
        )}
      </Suspense>
    </FirstRunGate>
  );
}

/** One route per entry of paths.ts, behind its guard; any other path goes home (spec section 2). */
export function Routes({ screens }: { screens: Screens }) {
  return (
    <Switch>
      {(Object.keys(routes) as RouteName[]).map((name) => (
        <Route key={name} path={routes[name].path}>
          {(params: { id?: string }) => <RouteScreen screens={screens} name={name} id={params.id} />}
        </Route>
      ))}
      <Route>
        <Redirect to={routes.home.path} replace />
      </Route>
    </Switch>
  );
}

export function App({ screens }: { screens: Screens }) {
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <NavBar />
      <main id="main" className="main">
        <PublicUrlOffer />
        <Routes screens={screens} />
      </main>
      <Footer />
      <Toasts />
    </div>
  );
}
