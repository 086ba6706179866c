// The admin's accounts and the owners waiting for approval: what the rest of web/ may import.
export { PendingOwners } from "./components/PendingOwners.tsx";
export { UsersPage } from "./UsersPage.tsx";
