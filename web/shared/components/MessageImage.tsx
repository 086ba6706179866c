import { useState } from "react";
import { absoluteImageUrl } from "../format.ts";

/** A broadcast's image under the message (the customer's messages, a conversation); gone when it cannot be read. */
export function MessageImage({ url }: { url: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img className="msg-image" src={absoluteImageUrl(url)} alt="Image sent with the message" onError={() => setFailed(true)} />;
}
