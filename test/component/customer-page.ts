// The Customers screen reads ListCustomers (one page at a time): its tests answer with a page.

export const CUSTOMERS_PAGE = "GET /api/customer/ListCustomers";

/** The whole list as one (last) page. */
export const onePage = <T>(items: T[]) => ({ items, nextCursor: null, total: items.length });
