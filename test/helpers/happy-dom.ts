// Preloaded only for test/component: the DOM globals would replace fetch/Request for the API tests.
import { GlobalRegistrator } from "@happy-dom/global-registrator";

GlobalRegistrator.register({ url: "http://localhost:3000/" });
