import { Placeholder } from "../../components/Placeholder.tsx";

export function BusinessTypeFormPage() {
  return <Placeholder title="BusinessTypeForm" />;
}
