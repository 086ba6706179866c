import { useEffect } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { Footer } from "./components/Footer.tsx";
import { RequireAdmin, RequireAuth } from "./components/Guards.tsx";
import { NavBar } from "./components/NavBar.tsx";
import { Toasts } from "./components/Toasts.tsx";
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
import { SubscribePage } from "./pages/Subscribe.tsx";
import { TermsPage } from "./pages/Terms.tsx";

function ScrollToTop() {
  const [location] = useLocation();
  // Block body: Chromium's scrollTo now returns a Promise, which React would call as the effect's cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

// The spec's route table (section 2).
export function Routes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/login" component={LoginPage} />
      <Route path="/register" component={RegisterPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/terms" component={TermsPage} />
      <Route path="/privacy" component={PrivacyPage} />
      <Route path="/faq" component={FaqPage} />
      <Route path="/businesses" component={BusinessListPage} />
      <Route path="/subscribe" component={SubscribePage} />
      <Route path="/customers">{() => <RequireAuth><CustomersListPage /></RequireAuth>}</Route>
      <Route path="/customers/add">{() => <RequireAuth><CustomerFormPage /></RequireAuth>}</Route>
      <Route path="/customers/edit/:id">{() => <RequireAuth><CustomerFormPage /></RequireAuth>}</Route>
      <Route path="/my-business">{() => <RequireAuth><MyBusinessPage /></RequireAuth>}</Route>
      <Route path="/businesses/add">{() => <RequireAuth><BusinessFormPage /></RequireAuth>}</Route>
      <Route path="/businesses/edit/:id">{() => <RequireAuth><BusinessFormPage /></RequireAuth>}</Route>
      <Route path="/businesses/broadcast/:id">{(params) => <RequireAuth><BroadcastPage id={params.id} /></RequireAuth>}</Route>
      <Route path="/business-types">{() => <RequireAdmin><BusinessTypesListPage /></RequireAdmin>}</Route>
      <Route path="/business-types/add">{() => <RequireAdmin><BusinessTypeFormPage /></RequireAdmin>}</Route>
      <Route path="/business-types/edit/:id">{() => <RequireAdmin><BusinessTypeFormPage /></RequireAdmin>}</Route>
      <Route path="/print/:id">{(params) => <PrintPosterPage id={params.id} />}</Route>
      <Route>
        <Redirect to="/" replace />
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
        <Routes />
      </main>
      <Footer />
      <Toasts />
    </div>
  );
}
