import { Placeholder } from "../../components/Placeholder.tsx";

export function BusinessTypesListPage() {
  return <Placeholder title="BusinessTypesList" />;
}
