// The account screens (sign in, register, password reset, first-run setup): what the rest of web/ may import.
export { ForgotPasswordPage } from "./ForgotPassword.tsx";
export { LoginPage } from "./Login.tsx";
export { RegisterPage } from "./Register.tsx";
export { ResetPasswordPage } from "./ResetPassword.tsx";
export { SetupPage } from "./Setup.tsx";
