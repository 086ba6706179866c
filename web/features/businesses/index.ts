// Businesses (the public list, the owner's cards and form, the QR poster): what the rest of web/ may import.
export { BusinessFormPage } from "./BusinessForm.tsx";
export { BusinessListPage } from "./BusinessList.tsx";
export { MyBusinessPage } from "./MyBusiness.tsx";
export { PrintPosterPage } from "./PrintPoster.tsx";
