import { HomePage } from "../features/home/Home.tsx";
import { startPublicPage } from "./page.tsx";

startPublicPage({ home: HomePage });
