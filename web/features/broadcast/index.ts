// The broadcast screen: what the rest of web/ may import.
export { BroadcastPage } from "./BroadcastPage.tsx";
