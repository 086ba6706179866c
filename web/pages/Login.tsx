import { Placeholder } from "../components/Placeholder.tsx";

export function LoginPage() {
  return <Placeholder title="Login" />;
}
