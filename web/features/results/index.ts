// A broadcast's results (issue 25, item 3): what the rest of web/ may import (the dashboard shows the same cards).
export { ResultsPage } from "./ResultsPage.tsx";
export { type Card, ResultCards } from "./components/ResultCards.tsx";
export { money, percent } from "./result-numbers.ts";
