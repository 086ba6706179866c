import { type FormEvent, useEffect, useRef, useState } from "react";

/** The part of useForm a submit needs. */
interface Submittable<Out> {
  /** Marks the form submitted (errors show); true when it may be sent. */
  submit(): boolean;
  output: Out | null;
}

interface SubmitOptions<Out> {
  /** Sends the valid output and shows the success (toast, navigation, a done state). */
  send: (output: Out) => Promise<void>;
  /** Tells the person why sending failed (toast, alert or a box on the form); the form can be sent again after. */
  fail: (err: unknown) => void;
  /** Nothing may be sent right now (already sent, or the link lacks its token). */
  blocked?: boolean;
}

/**
 * The submit of every form: no request while one is in flight or while the form is invalid (spec section 4), the
 * busy flag for the button, and the failure told once. A form that was sent stays busy: the screen is leaving or has
 * replaced the form, and a second click must not send it twice. Attach `formRef` to have a refused attempt move
 * focus to the first invalid control (a person on a phone may not see the error otherwise).
 */
export function useSubmit<Out>(form: Submittable<Out>, { send, fail, blocked = false }: SubmitOptions<Out>) {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (refused > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy || blocked) return;
    if (!form.submit() || form.output === null) {
      setRefused((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      await send(form.output);
    } catch (err) {
      fail(err);
      setBusy(false);
    }
  }

  return { busy, onSubmit, formRef };
}
