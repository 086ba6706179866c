import { useEffect } from "react";
import { Spinner } from "../../shared/components/Spinner.tsx";

/**
 * The subscribe page is rendered by the server (src/http/pages/subscribe-page.tsx), light enough for a phone on one
 * bar of signal, and works without JavaScript. A link followed inside the app fetches it from there.
 */
export function SubscribePage() {
  useEffect(() => {
    window.location.reload();
  }, []);
  return <Spinner label="Loading business..." />;
}
