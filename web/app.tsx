import { useSignals } from "@preact/signals-react/runtime";
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { Footer } from "./shared/components/Footer.tsx";
import { FirstRunGate, RequireAdmin, RequireAuth } from "./shared/components/Guards.tsx";
import { NavBar } from "./shared/components/NavBar.tsx";
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage, SetupPage } from "./features/auth/index.ts";
import { BusinessListPage } from "./features/businesses/index.ts";
import { HomePage } from "./features/home/index.ts";
import { AboutPage, FaqPage, PrivacyPage, TermsPage } from "./features/info/index.ts";
import { PublicUrlOffer } from "./features/settings/index.ts";
import { SubscribePage } from "./features/subscribe/index.ts";
import { Spinner } from "./shared/components/Spinner.tsx";
import { Toasts } from "./shared/components/Toasts.tsx";
import { usePageTitle } from "./shared/components/usePageTitle.ts";
import { type Access, pageDescription, pageTitle, type RouteName, routes } from "./shared/paths.ts";
import { brandName } from "./shared/state/site.ts";

type OwnerScreens = typeof import("./owner-screens.ts");
/** A screen of owner-screens.ts, fetched with the rest of that chunk when a route first shows it. */
const ownerScreen = (name: keyof OwnerScreens): ComponentType<{ id?: string }> =>
  lazy(() => import("./owner-screens.ts").then((m) => ({ default: m[name] as ComponentType<{ id?: string }> })));

/** The screen of every route in paths.ts: a route added there without a screen here does not compile. */
const screens: Record<RouteName, ComponentType<{ id?: string }>> = {
  home: HomePage,
  about: AboutPage,
  login: LoginPage,
  register: RegisterPage,
  forgotPassword: ForgotPasswordPage,
  resetPassword: ResetPasswordPage,
  terms: TermsPage,
  privacy: PrivacyPage,
  faq: FaqPage,
  businesses: BusinessListPage,
  subscribe: SubscribePage,
  customers: ownerScreen("CustomersListPage"),
  customerAdd: ownerScreen("CustomerFormPage"),
  customerEdit: ownerScreen("CustomerFormPage"),
  myBusiness: ownerScreen("MyBusinessPage"),
  businessAdd: ownerScreen("BusinessFormPage"),
  businessEdit: ownerScreen("BusinessFormPage"),
  broadcast: ownerScreen("BroadcastPage"),
  businessTypes: ownerScreen("BusinessTypesListPage"),
  businessTypeAdd: ownerScreen("BusinessTypeFormPage"),
  businessTypeEdit: ownerScreen("BusinessTypeFormPage"),
  settings: ownerScreen("SettingsPage"),
  users: ownerScreen("UsersPage"),
  print: ownerScreen("PrintPosterPage"),
  setup: SetupPage,
  registration: ownerScreen("RegistrationPage"),
  inbox: ownerScreen("InboxPage"),
  broadcastResults: ownerScreen("ResultsPage"),
  businessDashboard: ownerScreen("DashboardPage"),
  redeem: ownerScreen("RedeemPage"),
};

const guards: Record<Access, ComponentType<{ children: ReactNode }> | null> = {
  public: null,
  login: RequireAuth,
  admin: RequireAdmin,
};

function ScrollToTop() {
  const [location] = useLocation();
  // Block body: Chromium's scrollTo now returns a Promise, which React would call as the effect's cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/** One route's screen behind its guard, with the page's own title. */
function RouteScreen({ name, id }: { name: RouteName; id?: string }) {
  useSignals();
  usePageTitle(pageTitle(name, brandName.value), pageDescription(name));
  const Screen = screens[name];
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
export function Routes() {
  return (
    <Switch>
      {(Object.keys(routes) as RouteName[]).map((name) => (
        <Route key={name} path={routes[name].path}>
          {(params: { id?: string }) => <RouteScreen name={name} id={params.id} />}
        </Route>
      ))}
      <Route>
        <Redirect to={routes.home.path} replace />
      </Route>
    </Switch>
  );
}

export function App() {
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <NavBar />
      <main id="main" className="main">
        <PublicUrlOffer />
        <Routes />
      </main>
      <Footer />
      <Toasts />
    </div>
  );
}
