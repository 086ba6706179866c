// The admin's business types: what the rest of web/ may import.
export { BusinessTypeFormPage } from "./BusinessTypeForm.tsx";
export { BusinessTypesListPage } from "./BusinessTypesList.tsx";
