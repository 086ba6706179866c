import { Placeholder } from "../components/Placeholder.tsx";

export function RegisterPage() {
  return <Placeholder title="Register" />;
}
