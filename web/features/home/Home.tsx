import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { Link } from "wouter";
import { Icon, type IconName } from "../../shared/components/Icon.tsx";
import { type Channel, PhoneMockup } from "./components/PhoneMockup.tsx";
import { PosterMockup } from "./components/PosterMockup.tsx";
import { SetupChecklist } from "../settings/index.ts";
import { SimulateReply } from "../customers/index.ts";
import { PendingApprovalNotice } from "../../shared/components/PendingApproval.tsx";
import { PendingOwners } from "../users/index.ts";
import { BrandName } from "../../shared/components/Brand.tsx";
import { paths } from "../../shared/paths.ts";
import { currentUser, isAdmin } from "../../shared/state/session.ts";
import "../../shared/styles/marketing.css";

const STEPS: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "qr",
    title: "Scan the QR code",
    text: "Spot the poster at the counter and point your phone's camera at it, or find the shop in our business list.",
  },
  {
    icon: "phone",
    title: "Enter your number",
    text: "Type your phone number and choose SMS or WhatsApp. No app to install, no account to create.",
  },
  {
    icon: "bell",
    title: "Get notified",
    text: "Receive promotions, offers, deals and event news straight from the shops you chose.",
  },
];

const BENEFITS: { icon: IconName; title: string; text: string }[] = [
  { icon: "tag", title: "Deals you'd otherwise miss", text: "Promotions, offers and deals from your neighborhood, the moment they start." },
  { icon: "zap", title: "First to know about flash sales", text: "Same-day discounts and limited offers land on your phone in time to use them." },
  { icon: "message", title: "SMS or WhatsApp", text: "Pick the channel you already use every day. Nothing new to learn." },
  { icon: "gift", title: "Free to join", text: "Subscribing costs nothing. Only your carrier's usual SMS rates may apply." },
  { icon: "shield", title: "Your number stays private", text: "Used only for notifications, never shared, and deleted whenever you ask." },
  { icon: "exit", title: "Leave any time", text: "Reply STOP or UNSUBSCRIBE to any message and the notifications stop." },
];

function Hero() {
  return (
    <section className="mk-hero" aria-labelledby="home-title">
      <div className="container mk-hero-inner">
        <div className="mk-hero-copy">
          <p className="mk-eyebrow">Local deals, straight to your phone</p>
          <h1 id="home-title">Never miss a deal from the local shops you love</h1>
          <p className="mk-lede">
            <BrandName /> connects neighborhood businesses with their regulars. Scan a QR code at the counter, enter your
            number, and get promotions, offers and flash sales by SMS or WhatsApp.
          </p>
          <div className="mk-actions">
            <Link href={paths.businesses} className="btn btn-primary btn-lg">
              Browse Businesses
            </Link>
            {/* The words read aloud and seen by search engines say where it leads; the button shows "Learn More". */}
            <Link href={paths.about} className="btn btn-secondary btn-lg">
              Learn More<span className="sr-only"> about <BrandName /></span>
            </Link>
          </div>
          <ul className="mk-hero-points">
            <li>
              <Icon name="check" size={18} /> Free to join
            </li>
            <li>
              <Icon name="check" size={18} /> SMS or WhatsApp
            </li>
            <li>
              <Icon name="check" size={18} /> Unsubscribe any time
            </li>
          </ul>
        </div>
        <div className="mk-hero-visual">
          <PosterMockup />
        </div>
      </div>
    </section>
  );
}

function HowItWorks() {
  return (
    <section className="mk-section" aria-labelledby="how-title">
      <div className="container">
        <div className="mk-section-head">
          <p className="mk-eyebrow">How it works</p>
          <h2 id="how-title">Subscribed in three simple steps</h2>
        </div>
        <ol className="mk-steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="mk-step card">
              <span className="mk-step-number" aria-hidden="true">
                {i + 1}
              </span>
              <span className="mk-icon">
                <Icon name={step.icon} />
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function Benefits() {
  return (
    <section className="mk-section mk-section-alt" aria-labelledby="benefits-title">
      <div className="container">
        <div className="mk-section-head">
          <p className="mk-eyebrow">Why <BrandName /></p>
          <h2 id="benefits-title">Good for you, good for your neighborhood</h2>
        </div>
        <ul className="grid mk-benefits">
          {BENEFITS.map((b) => (
            <li key={b.title} className="card mk-benefit">
              <span className="mk-icon">
                <Icon name={b.icon} />
              </span>
              <h3>{b.title}</h3>
              <p>{b.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function SamplePromotion() {
  const [channel, setChannel] = useState<Channel>("sms");
  return (
    <section className="mk-section" aria-labelledby="sample-title">
      <div className="container mk-split">
        <div className="mk-split-copy">
          <p className="mk-eyebrow">A sample promotion</p>
          <h2 id="sample-title">What a promotion looks like</h2>
          <p>
            When Sunrise Bakery has something worth sharing, every subscriber gets it at once: a short message, and a
            picture if the shop adds one. It arrives as a regular text or as a WhatsApp message, whichever you chose.
          </p>
          <ul className="mk-checklist">
            <li>
              <Icon name="check" size={18} /> Straight from the shop, no middleman ads
            </li>
            <li>
              <Icon name="check" size={18} /> Show the message at the counter to get the deal
            </li>
            <li>
              <Icon name="check" size={18} /> Every message tells you how to stop
            </li>
          </ul>
          <div className="mk-toggle" role="group" aria-label="Show the sample as">
            <button type="button" aria-pressed={channel === "sms"} onClick={() => setChannel("sms")}>
              SMS
            </button>
            <button type="button" aria-pressed={channel === "whatsapp"} onClick={() => setChannel("whatsapp")}>
              WhatsApp
            </button>
          </div>
        </div>
        <div className="mk-split-visual">
          <PhoneMockup channel={channel} />
        </div>
      </div>
    </section>
  );
}

function CallToAction() {
  return (
    <section className="mk-section" aria-labelledby="cta-title">
      <div className="container">
        <div className="mk-cta">
          <h2 id="cta-title">Find your favorite local businesses</h2>
          <p>Browse the shops already on <BrandName /> and subscribe in seconds.</p>
          <Link href={paths.businesses} className="btn btn-accent btn-lg">
            Browse Businesses
          </Link>
        </div>
      </div>
    </section>
  );
}

export function HomePage() {
  useSignals();
  return (
    <div className="mk">
      {isAdmin.value && <SetupChecklist />}
      {isAdmin.value && <PendingOwners />}
      {currentUser.value?.status === "pending" && (
        <div className="container">
          <PendingApprovalNotice />
        </div>
      )}
      {/* Owners and the admin, when messages are in the sandbox (the panel asks the server and hides otherwise). */}
      {currentUser.value && <SimulateReply />}
      <Hero />
      <HowItWorks />
      <Benefits />
      <SamplePromotion />
      <CallToAction />
    </div>
  );
}
