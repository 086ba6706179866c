import { Placeholder } from "../components/Placeholder.tsx";

export function HomePage() {
  return <Placeholder title="Home" />;
}
