// Paused channels (src/dispatch/channel-gate.ts has why): each pause is kept as an internal key of the settings table
// (`paused.SMS`, `paused.WhatsApp`; not a setting, settings.view() lists only SETTING_KEYS), so it outlives the
// process and every process shows it: the broadcast's status ("Paused: <reason>"), the checklist and `nearcast
// doctor` (a red line with the fix), and one email to the admins per pause. The dispatcher keeps them through this
// service (the PauseStore of src/dispatch/store.ts); a status callback with 30034 pauses here too; a change of the
// messaging settings resumes every channel.
import type { ChannelPause, DeliveryChannel, PauseStore } from "../dispatch/store.ts";
import { createBackground } from "../lib/background.ts";
import { pausedText, problemText } from "../messaging/account-errors.ts";
import { sendingPausedEmail } from "../mail/sending-paused-email.ts";
import type { Repos } from "../repos/index.ts";
import type { ChecklistItem } from "../schemas/checklist.ts";
import type { MailingDeps } from "./mailing-deps.ts";

const CHANNELS: readonly DeliveryChannel[] = ["SMS", "WhatsApp"];
const keyOf = (channel: DeliveryChannel) => `paused.${channel}`;

type Stored = Omit<ChannelPause, "channel">;

/** The pauses kept now. A row that does not parse is ignored (it never stops sending). */
export function readPauses(repos: Pick<Repos, "settings">): ChannelPause[] {
  const out: ChannelPause[] = [];
  for (const channel of CHANNELS) {
    const raw = repos.settings.get(keyOf(channel));
    if (!raw) continue;
    try {
      const p = JSON.parse(raw) as Stored;
      if (typeof p.reason === "string" && typeof p.since === "number") out.push({ channel, code: p.code ?? null, reason: p.reason, fix: String(p.fix ?? ""), since: p.since });
    } catch {
      // not ours to guess
    }
  }
  return out;
}

/** "Paused: <reason>" while a pause holds this broadcast's messages back; null when none does. */
export function pauseOfBroadcast(repos: Pick<Repos, "settings" | "pausedDeliveries">, broadcastId: number): string | null {
  const hit = readPauses(repos).find((p) => repos.pausedDeliveries.hasPending(broadcastId, p.channel));
  return hit ? pausedText(hit.reason) : null;
}

/** The checklist's red line for each paused channel, with the fix. */
export function pausedChecklistItems(pauses: ChannelPause[]): ChecklistItem[] {
  return pauses.map((p) => ({
    id: "sendingPaused",
    status: "red",
    title: `${p.channel} sending paused`,
    detail: `Since ${new Date(p.since).toISOString().slice(0, 16).replace("T", " ")} UTC: ${p.reason}. ${p.fix} Nothing is lost: the messages wait and go once it is fixed.`,
  }));
}

export type SendingPauseDeps = MailingDeps;

export function createSendingPauseService({ repos, clock, logger, mailer, settings }: SendingPauseDeps) {
  const background = createBackground(logger);

  function emailAdmins(p: ChannelPause): void {
    if (!mailer.configured()) return;
    background.run("the sending-paused email", async () => {
      const { brandName } = settings.current();
      const base = settings.savedPublicUrl();
      for (const admin of repos.users.list().filter((u) => u.role === "admin" && u.status === "approved")) {
        await mailer.send(sendingPausedEmail(admin.email, brandName, p, base));
        logger.info(`sending-paused email (${p.channel}) sent to admin ${admin.id}`);
      }
    });
  }

  const store: PauseStore = {
    list: () => readPauses(repos),

    pause(p) {
      const isNew = repos.transaction(() => {
        if (repos.settings.get(keyOf(p.channel))) return false;
        const { channel: _, ...stored } = p;
        repos.settings.save(keyOf(p.channel), JSON.stringify(stored), new Date(p.since));
        return true;
      });
      if (!isNew) return false;
      repos.pausedDeliveries.holdQueued(p.channel, p.since, pausedText(p.reason));
      logger.warn(`${p.channel} sending paused: ${p.reason}. ${p.fix}`);
      emailAdmins(p);
      return true;
    },

    resume(channel, now) {
      return repos.transaction(() => {
        repos.settings.remove([keyOf(channel)]);
        return repos.pausedDeliveries.resume(channel, now);
      });
    },

    probe: (channel, now) => repos.pausedDeliveries.probe(channel, now),

    hold(channel, now) {
      const p = readPauses(repos).find((x) => x.channel === channel);
      return p ? repos.pausedDeliveries.holdQueued(channel, now, pausedText(p.reason)) : 0;
    },
  };

  return {
    /** What the dispatcher keeps its pauses in. */
    store,
    list: store.list,

    /** The messaging settings changed: every channel resumes (a problem that remains pauses it again, once). */
    resumeAll(): void {
      const now = clock.now().getTime();
      for (const p of readPauses(repos)) {
        const n = store.resume(p.channel, now);
        logger.info(`${p.channel} sending resumed after a settings change; ${n} held message(s) queued again`);
      }
    },

    /** A delivery Twilio accepted and then refused for the account (30034 or 30032 in a status callback): it was not
     * delivered, so it waits for the pause to lift, and the channel pauses. false when the row had moved on. */
    requeueRefused(deliveryId: number, providerId: string, channel: DeliveryChannel, problem: { code: number | null; reason: string; fix: string }): boolean {
      const now = clock.now().getTime();
      const reason = problemText(problem);
      store.pause({ channel, code: problem.code, reason, fix: problem.fix, since: now });
      return repos.pausedDeliveries.requeueUndelivered(deliveryId, providerId, now, problem.code, pausedText(reason));
    },

    /** For tests and a shutdown: the emails started so far have gone. */
    idle: () => background.idle(),
  };
}

export type SendingPauseService = ReturnType<typeof createSendingPauseService>;
