import type { ReactNode } from "react";

export type Channel = "sms" | "whatsapp";

const BAKERY = "Sunrise Bakery";

/** The promo picture attached to the broadcast, drawn with CSS (no external image). */
function PromoImage() {
  return (
    <div className="promo-image" role="img" aria-label="Promotion picture: flash sale, 20% off croissants and sourdough">
      <span className="promo-image-bun promo-image-bun-1" />
      <span className="promo-image-bun promo-image-bun-2" />
      <span className="promo-image-bun promo-image-bun-3" />
      <span className="promo-image-kicker" aria-hidden="true">Flash sale</span>
      <span className="promo-image-big" aria-hidden="true">20% OFF</span>
      <span className="promo-image-small" aria-hidden="true">Croissants &amp; sourdough</span>
    </div>
  );
}

function Bubble({ time, children }: { time: string; children: ReactNode }) {
  return (
    <div className="phone-bubble">
      {children}
      <span className="phone-bubble-time">{time}</span>
    </div>
  );
}

/**
 * A phone showing a broadcast from a bakery as an SMS or a WhatsApp message. Fixed size, so switching the
 * channel never moves the page around it.
 */
export function PhoneMockup({ channel = "sms" }: { channel?: Channel }) {
  const whatsapp = channel === "whatsapp";
  return (
    <figure className={`phone phone-${channel}`} aria-label={`Sample ${whatsapp ? "WhatsApp" : "SMS"} promotion from ${BAKERY}`}>
      <div className="phone-screen">
        <div className="phone-status" aria-hidden="true">
          <span>9:41</span>
          <span className="phone-status-icons">
            <span className="phone-signal" />
            <span className="phone-battery" />
          </span>
        </div>
        <div className="phone-header">
          <span className="phone-avatar" aria-hidden="true">
            SB
          </span>
          <span className="phone-contact">
            <strong>{BAKERY}</strong>
            <small>{whatsapp ? "WhatsApp · Business account" : "Text message · SMS"}</small>
          </span>
        </div>
        <div className="phone-thread">
          <p className="phone-day">Yesterday</p>
          <Bubble time="4:15 PM">
            <p>Cinnamon rolls are back! Fresh every morning from 7 AM.</p>
          </Bubble>
          <p className="phone-day">Today</p>
          <Bubble time="8:02 AM">
            <PromoImage />
            <p>
              Good morning! Flash sale today only: <strong>20% off</strong> all croissants and sourdough loaves until
              2 PM. Show this message at the counter.
            </p>
            <p className="phone-bubble-note">Reply STOP to unsubscribe.</p>
          </Bubble>
        </div>
        <div className="phone-compose" aria-hidden="true">
          <span>{whatsapp ? "Message" : "Text Message"}</span>
        </div>
      </div>
    </figure>
  );
}
