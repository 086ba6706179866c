import { useSignals } from "@preact/signals-react/runtime";
import { type ComponentType, type ReactNode, useEffect } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { Footer } from "./components/Footer.tsx";
import { FirstRunGate, RequireAdmin, RequireAuth } from "./components/Guards.tsx";
import { NavBar } from "./components/NavBar.tsx";
import { PublicUrlOffer } from "./components/PublicUrlOffer.tsx";
import { Toasts } from "./components/Toasts.tsx";
import { usePageTitle } from "./components/usePageTitle.ts";
import { AboutPage } from "./pages/About.tsx";
import { BroadcastPage } from "./pages/Broadcast.tsx";
import { BusinessTypeFormPage } from "./pages/business-types/BusinessTypeForm.tsx";
import { BusinessTypesListPage } from "./pages/business-types/BusinessTypesList.tsx";
import { CustomerFormPage } from "./pages/customers/CustomerForm.tsx";
import { CustomersListPage } from "./pages/customers/CustomersList.tsx";
import { BusinessFormPage } from "./pages/businesses/BusinessForm.tsx";
import { BusinessListPage } from "./pages/businesses/BusinessList.tsx";
import { MyBusinessPage } from "./pages/businesses/MyBusiness.tsx";
import { FaqPage } from "./pages/Faq.tsx";
import { ForgotPasswordPage } from "./pages/ForgotPassword.tsx";
import { HomePage } from "./pages/Home.tsx";
import { LoginPage } from "./pages/Login.tsx";
import { PrintPosterPage } from "./pages/PrintPoster.tsx";
import { PrivacyPage } from "./pages/Privacy.tsx";
import { RegisterPage } from "./pages/Register.tsx";
import { ResetPasswordPage } from "./pages/ResetPassword.tsx";
import { SetupPage } from "./pages/Setup.tsx";
import { SettingsPage } from "./pages/settings/SettingsPage.tsx";
import { SubscribePage } from "./pages/Subscribe.tsx";
import { TermsPage } from "./pages/Terms.tsx";
import { UsersPage } from "./pages/users/UsersPage.tsx";
import { type Access, pageTitle, type RouteName, routes } from "./paths.ts";
import { brandName } from "./state/site.ts";

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
  customers: CustomersListPage,
  customerAdd: CustomerFormPage,
  customerEdit: CustomerFormPage,
  myBusiness: MyBusinessPage,
  businessAdd: BusinessFormPage,
  businessEdit: BusinessFormPage,
  broadcast: BroadcastPage,
  businessTypes: BusinessTypesListPage,
  businessTypeAdd: BusinessTypeFormPage,
  businessTypeEdit: BusinessTypeFormPage,
  settings: SettingsPage,
  users: UsersPage,
  print: PrintPosterPage,
  setup: SetupPage,
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
  usePageTitle(pageTitle(name, brandName.value));
  const Screen = screens[name];
  const Guard = guards[routes[name].access];
  return (
    <FirstRunGate route={name}>
      {Guard ? (
        <Guard>
          <Screen id={id} />
        </Guard>
      ) : (
        <Screen id={id} />
      )}
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
