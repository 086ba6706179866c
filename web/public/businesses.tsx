import { BusinessListPage } from "../features/businesses/BusinessList.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ businesses: BusinessListPage });
