// The inbox (issue 24): what customers text back and the owner's answers. What the rest of web/ may import.
export { InboxPage } from "./InboxPage.tsx";
export { CustomerConversations } from "./CustomerConversations.tsx";
