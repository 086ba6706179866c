// /login, /register and /forgot-password: one script, as their screens send people to each other (a registration
// ends on the login page with its toast) without loading a page.
import { ForgotPasswordPage } from "../features/auth/ForgotPassword.tsx";
import { LoginPage } from "../features/auth/Login.tsx";
import { RegisterPage } from "../features/auth/Register.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ login: LoginPage, register: RegisterPage, forgotPassword: ForgotPasswordPage });
