// The subscribe route of the app (the page itself is server-rendered; enhance.ts is its own small script).
export { SubscribePage } from "./Subscribe.tsx";
