import { Placeholder } from "../components/Placeholder.tsx";

export function TermsPage() {
  return <Placeholder title="Terms" />;
}
