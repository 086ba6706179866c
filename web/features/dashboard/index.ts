// A business's dashboard (issue 25, item 4): what the rest of web/ may import.
export { DashboardPage } from "./DashboardPage.tsx";
