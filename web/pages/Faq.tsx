import { Placeholder } from "../components/Placeholder.tsx";

export function FaqPage() {
  return <Placeholder title="Faq" />;
}
