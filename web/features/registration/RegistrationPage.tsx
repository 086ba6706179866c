import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { Link, useSearch } from "wouter";
import type { RegistrationKit } from "../../../src/schemas/registration.ts";
import { REGISTER_BEFORE_SENDING } from "../../../src/schemas/registration.ts";
import { businessReadApi } from "../../shared/api/businesses.ts";
import { ApiError } from "../../shared/api/client.ts";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { paths } from "../../shared/paths.ts";
import { isAdmin } from "../../shared/state/session.ts";
import "../../shared/styles/registration.css";
import { registrationApi } from "./api.ts";
import { CopyField } from "./CopyField.tsx";

type State = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "ready"; kit: RegistrationKit };

const NO_URL = "Missing: no public URL is saved (see the problems above).";

/** Every field of the kit, in the order Twilio's forms ask, each with Copy. */
function KitFields({ kit }: { kit: RegistrationKit }) {
  return (
    <div className="card kit-fields">
      <CopyField label="Use case" name="useCase" value={kit.useCase} />
      <CopyField label="Description" name="description" value={kit.description} />
      <CopyField label="Opt-in type" name="optInType" value={kit.optInType} />
      <CopyField label="Opt-in workflow" name="optInDescription" value={kit.optInDescription} />
      <CopyField label="Opt-in image URL (the poster)" name="optInImageUrl" value={kit.optInImageUrl} missing={NO_URL} />
      <CopyField label="Program page URL" name="programUrl" value={kit.programUrl} missing={NO_URL} />
      <CopyField label="Privacy policy URL" name="privacyUrl" value={kit.privacyUrl} missing={NO_URL} />
      <CopyField label="Terms URL" name="termsUrl" value={kit.termsUrl} missing={NO_URL} />
      {kit.sampleMessages.map((s, i) => (
        <CopyField key={i} label={`Sample message ${i + 1}`} name={`sampleMessages[${i}]`} value={s} />
      ))}
      <CopyField label={`Monthly volume (${kit.monthlyVolumeBasis})`} name="monthlyVolume" value={kit.monthlyVolumeTier} />
      {kit.keywords.map((k) => (
        <CopyField key={k.keyword} label={`Reply to ${k.keyword}`} name={`keywords.${k.keyword}`} value={k.reply} />
      ))}
    </div>
  );
}

function Kit({ businessId }: { businessId: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    let live = true;
    setState({ kind: "loading" });
    registrationApi
      .kit(businessId)
      .then((kit) => live && setState({ kind: "ready", kit }))
      .catch((e: unknown) => live && setState({ kind: "failed", message: (e instanceof ApiError && e.message) || "Could not load the registration kit." }));
    return () => {
      live = false;
    };
  }, [businessId]);
  if (state.kind === "loading") return <Spinner label="Loading the registration kit..." />;
  if (state.kind === "failed") return <div className="alert alert-error" role="alert">{state.message}</div>;
  const { kit } = state;
  return (
    <>
      <h2 className="kit-business">{kit.businessName}</h2>
      {kit.sender.needsRegistration && (
        <div className="alert alert-warning" role="status">
          <strong>{REGISTER_BEFORE_SENDING}.</strong> {kit.sender.number} is a US number, {kit.sender.registration}: carriers block its texts until they
          approve it. Paste these fields into Twilio's toll-free verification or A2P 10DLC campaign form{isAdmin.value ? ", then set Sender registration in Settings" : ""}.
        </div>
      )}
      {kit.problems.length > 0 && (
        <div className="alert alert-warning kit-problems" role="status">
          <strong>Fix before you submit ({kit.problems.length}):</strong>
          <ul>
            {kit.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <KitFields kit={kit} />
    </>
  );
}

/** Without ?business=: the businesses to choose from (the caller's own; an admin's choice of every active one). */
function ChooseBusiness() {
  useSignals();
  const [list, setList] = useState<{ id: number; name: string }[] | null>(null);
  useEffect(() => {
    let live = true;
    (isAdmin.value ? businessReadApi.listActive() : businessReadApi.listMine()).then((l) => live && setList(l)).catch(() => live && setList([]));
    return () => {
      live = false;
    };
  }, []);
  if (list === null) return <Spinner label="Loading businesses..." />;
  if (list.length === 0) return <p className="card empty-state">No business yet: add one under My Business first.</p>;
  return (
    <ul className="card kit-choose" aria-label="Choose a business">
      {list.map((b) => (
        <li key={b.id}>
          <Link href={paths.registration(b.id)}>{b.name}</Link>
        </li>
      ))}
    </ul>
  );
}

/** /registration?business=N: the fields of the carriers' registration forms for one business, filled in. */
export function RegistrationPage() {
  const business = new URLSearchParams(useSearch()).get("business");
  return (
    <section className="container page kit-page">
      <header className="page-header">
        <div>
          <h1>Carrier registration</h1>
          <p className="page-subtitle">
            US carriers deliver nothing from a number until its toll-free verification or 10DLC campaign is approved. Copy each field into Twilio's form.
          </p>
        </div>
      </header>
      {business ? <Kit businessId={business} /> : <ChooseBusiness />}
    </section>
  );
}
