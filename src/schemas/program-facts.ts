// The facts of a business's messaging programme as its public program page states them (issue 23): each comes from
// the function that already says it where it counts, never a copy: the consent words of the subscribe page
// (consent.ts), the frequency those words promise, and the confirmation text the confirmation sender queues
// (confirmation.ts). A test holds the program page, the subscribe page and a real confirmation to the same words.
import { confirmationText } from "./confirmation.ts";
import { consentText, programmeSentence, RATES_STOP_HELP } from "./consent.ts";

export interface ProgramBusiness {
  name: string;
  messagesPerWeek: number;
  doubleOptIn: boolean;
}

export interface ProgramFacts {
  /** The consent text the subscribe page shows before a channel is chosen (and stores with the subscription). */
  consent: string;
  /** "Recurring promotional messages by SMS/WhatsApp, up to 4 per week". */
  frequency: string;
  /** "Msg & data rates may apply. Reply STOP to cancel, HELP for help." */
  disclosure: string;
  /** The text a new subscriber receives. */
  confirmation: string;
}

export function programFacts(b: ProgramBusiness): ProgramFacts {
  return {
    consent: consentText(b),
    frequency: programmeSentence(b.messagesPerWeek),
    disclosure: RATES_STOP_HELP,
    confirmation: confirmationText(b),
  };
}
