import { Link } from "wouter";
import { type LegalSection, LegalDocument } from "./components/LegalDocument.tsx";
import { BrandName, ContactEmailLink } from "../../shared/components/Brand.tsx";
import { paths } from "../../shared/paths.ts";
import { LINK_AND_COUPON_ERASURE, LinkAndCouponRecords, LinkAndCouponRetention } from "./privacy-links-and-coupons.tsx";
import "../../shared/styles/legal.css";

const mail = <ContactEmailLink />;

const SECTIONS: LegalSection[] = [
  {
    title: "Who We Are",
    body: (
      <p>
        <BrandName /> (“we”, “us”) runs a service that lets local businesses send promotions to customers who subscribe
        by SMS or WhatsApp. For subscribers, we handle phone numbers on behalf of the businesses they join; for business
        owners and website visitors, we decide how information is used. You can reach us at {mail}.
      </p>
    ),
  },
  {
    title: "Scope of This Policy",
    body: (
      <p>
        This policy covers the <BrandName /> website, the subscription pages reached through QR codes, the business
        dashboard and the messages sent through the Service. It does not cover the websites or in-store practices of the
        businesses you subscribe to, which have their own policies.
      </p>
    ),
  },
  {
    title: "Information We Collect from Subscribers",
    body: (
      <>
        <p>When you subscribe to a business, we collect:</p>
        <ul>
          <li>your mobile phone number;</li>
          <li>your contact preference (SMS or WhatsApp);</li>
          <li>which business you subscribed to, and when;</li>
          <li>the IP address and browser details of the device used to subscribe, kept as a record of your consent.</li>
        </ul>
        <p>We do not ask for your name, email address or location to subscribe.</p>
      </>
    ),
  },
  {
    title: "Information We Collect from Business Owners",
    body: (
      <ul>
        <li>account details: first name, last name, email address and password (stored only in hashed form);</li>
        <li>business details: name, type, address, phone number, logo, sample product image and the messages shown on
          the QR code poster and after subscribing;</li>
        <li>the broadcast messages and images you send to your subscribers.</li>
      </ul>
    ),
  },
  {
    title: "Information Collected Automatically",
    body: (
      <p>
        Like most websites, our servers record basic technical information such as IP address, browser type, the pages
        requested and the time of each request. We use it to keep the Service secure, to prevent abuse such as repeated
        subscription attempts, and to fix problems. We do not use advertising or third-party analytics trackers.
      </p>
    ),
  },
  {
    title: "How We Use Your Phone Number",
    body: (
      <p>
        Your phone number is used only for notifications: to send you the promotions, offers, deals, flash sales, news
        about new products and services, and events of the businesses you subscribed to, and to act on your replies such
        as STOP. We never use it for anything else, and we never call you.
      </p>
    ),
  },
  {
    title: "How We Use Other Information",
    body: (
      <ul>
        <li>to create and secure business accounts and let owners manage their businesses and customers;</li>
        <li>to show businesses in the public business list and produce their QR codes and posters;</li>
        <li>to deliver broadcasts and show owners the delivery status of each message;</li>
        <li>to show owners how a message did: how many of its links were clicked and its coupons redeemed;</li>
        <li>to answer support requests and send important service notices, such as changes to our terms;</li>
        <li>to detect and prevent fraud, spam and abuse.</li>
      </ul>
    ),
  },
  {
    title: "Your Consent",
    body: (
      <p>
        You subscribe by choice, by scanning a business's QR code or choosing it in the business list and entering your
        number. That consent is the basis on which messages are sent to you, and you can withdraw it at any time as
        described under “Opting Out” below. For security logs, we rely on our legitimate interest in running a safe
        service.
      </p>
    ),
  },
  {
    title: "We Never Sell or Share Your Phone Number",
    body: (
      <p>
        We never sell, rent or trade phone numbers, and we never share them with advertisers, data brokers or other
        businesses. A business you subscribe to sees your number in its own subscriber list, together with the messages
        it sent you, so that it can manage that list; it cannot see which other businesses you follow. The only others
        who handle your number are the providers that deliver messages for us, described below.
      </p>
    ),
  },
  {
    title: "Service Providers",
    body: (
      <p>
        To deliver text and WhatsApp messages we use messaging providers and mobile carriers, and WhatsApp for WhatsApp
        messages. They receive only what they need to deliver a message (your number and the message content) and may
        use it only for that purpose. We may also disclose information when the law requires it, or to protect the
        rights and safety of our users, and then only the minimum necessary.
      </p>
    ),
  },
  {
    title: "Message Records",
    body: (
      <>
        <p>
          For each message we keep a record of the business, the message text and any image, the date and time it was
          sent and its delivery status (Sent, Delivered or Failed). Business owners can see the messages sent to each of
          their subscribers. These records help businesses confirm delivery and help us look into complaints.
        </p>
        <LinkAndCouponRecords />
      </>
    ),
  },
  {
    title: "Opting Out",
    body: (
      <p>
        You can stop receiving messages at any time by replying STOP (or UNSUBSCRIBE) to any message, from the phone
        number you enrolled. We record your request and stop sending you notifications from that sender. To start again,
        reply START or subscribe once more. Opting out is free, although your carrier's standard rate may apply to the
        reply itself.
      </p>
    ),
  },
  {
    title: "Data Retention",
    body: (
      <>
        <p>
          We keep your phone number while you are subscribed to at least one business. After you opt out, we keep a short
          record of the opt-out so that you are not messaged again by mistake. Business account data is kept while the
          account is open. Technical logs are kept only for a limited period.
        </p>
        <LinkAndCouponRetention />
      </>
    ),
  },
  {
    title: "Deleting Your Data",
    body: (
      <p>
        Your phone number and the information linked to it are deleted on request: email {mail} with the number you want
        removed. We may ask you to confirm that the number is yours before deleting it. {LINK_AND_COUPON_ERASURE} Business
        owners can also remove a customer from their dashboard, or ask us to close their account and delete its data.
      </p>
    ),
  },
  {
    title: "Your Rights and Choices",
    body: (
      <p>
        Depending on where you live, you may have the right to access, correct or delete your information, to receive a
        copy of it, and to object to or restrict how we use it. To use any of these rights, email {mail}. We will not
        treat you differently for exercising them.
      </p>
    ),
  },
  {
    title: "Data Security",
    body: (
      <p>
        We protect information with measures such as encrypted connections, hashed passwords, access controls that let
        each business owner see only their own customers, and limits against automated abuse. No system is perfectly
        secure, but we work hard to protect your information and will tell you about a breach that affects you as the law
        requires.
      </p>
    ),
  },
  {
    title: "Cookies and Local Storage",
    body: (
      <p>
        We do not use advertising cookies. When a business owner logs in, the browser keeps a sign-in token in its local
        storage, and we set a small security cookie that protects forms against cross-site request forgery. Both are
        needed for the Service to work, and neither is used to track you across other websites.
      </p>
    ),
  },
  {
    title: "Children's Privacy",
    body: (
      <p>
        <BrandName /> is not intended for children under 13, and we do not knowingly collect personal information from
        children under 13. If you believe a child under 13 has subscribed, contact us at {mail} and we will delete the
        number.
      </p>
    ),
  },
  {
    title: "Where Your Information Is Stored",
    body: (
      <p>
        Information is stored on servers operated by or for <BrandName /> and may be processed in the United States and
        in other countries where our messaging providers operate. When information crosses borders, we take steps to keep
        it protected as described in this policy.
      </p>
    ),
  },
  {
    title: "Changes to This Policy",
    body: (
      <p>
        We may update this Privacy Policy. We will give at least 30 days' notice of material changes, by email to account
        holders and by a notice on this page, before they take effect, and we will update the “Last updated” date above.
        We will never start using your phone number for a new purpose without your consent. See also our{" "}
        <Link href={paths.terms}>Terms of Service</Link>.
      </p>
    ),
  },
  {
    title: "Contact Us",
    body: (
      <p>
        For questions, requests or complaints about privacy, email us at {mail}. If you are not satisfied with our
        answer, you may also contact your local data protection authority.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalDocument
      slug="privacy"
      title="Privacy Policy"
      sections={SECTIONS}
      intro={
        <p>
          Your privacy matters to the shops you love and to us. This policy explains what <BrandName /> collects when you
          subscribe to a business, register a business account or visit our website, and how we use and protect it.
        </p>
      }
    />
  );
}
