import { Placeholder } from "../components/Placeholder.tsx";

export function ForgotPasswordPage() {
  return <Placeholder title="ForgotPassword" />;
}
