import { Placeholder } from "../components/Placeholder.tsx";

export function ResetPasswordPage() {
  return <Placeholder title="ResetPassword" />;
}
