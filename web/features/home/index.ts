// The home page: what the rest of web/ may import.
export { HomePage } from "./Home.tsx";
