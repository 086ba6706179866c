// Customers (list, form, import, requests, messages, the sandbox reply panel): what the rest of web/ may import.
export { CustomerFormPage } from "./CustomerForm.tsx";
export { CustomersListPage } from "./CustomersList.tsx";
export { SimulateReply } from "./components/SimulateReply.tsx";
