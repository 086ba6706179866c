// The Customers screen reads ListCustomers (one page at a time): its tests answer with a page (onePage, mock-api.ts).

export const CUSTOMERS_PAGE = "GET /api/customer/ListCustomers";
