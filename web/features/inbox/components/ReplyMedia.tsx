import { useEffect, useState } from "react";
import { requestBlob } from "../../../shared/api/client.ts";

/** A picture the customer sent, read with the owner's session (the server serves it to them only). */
export function ReplyMedia({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let objectUrl: string | null = null;
    requestBlob(url).then(
      (blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      },
      (err) => {
        console.error("Error loading a reply's picture:", err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (failed) return <span className="inbox-media-missing">The picture could not be loaded.</span>;
  if (!src) return <span className="inbox-media-loading">Loading picture...</span>;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      <img className="msg-image inbox-media" src={src} alt="Picture the customer sent" />
    </a>
  );
}
