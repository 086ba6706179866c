// `nearcast inbox list|show|reply`, and the retention of replies in `prune` and `customers forget` (issue 24).
import { afterAll, expect, test } from "bun:test";
import { json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { ownersWorld } from "../helpers/worlds.ts";

const dirs = tempDataDirs("nearcast-cli-inbox");
afterAll(dirs.removeAll);
const DAY = 86_400_000;

/** A bakery and a gym, each with a follower who texted; the bakery's text received `ageDays` ago. */
function seeded(ageDays = 0) {
  const dir = dirs.make();
  const ids = withDataDir(dir, (ctx) => {
    const w = ownersWorld(ctx, { cafe: false });
    const fan = insertSubscriber(ctx, w.bakery.id, { phone: "+14155550141" }).customer;
    const gymFan = insertSubscriber(ctx, w.gym.id, { phone: "+14155550142" }).customer;
    ctx.services.inbox.receive({ From: "+14155550141", Body: "Gluten-free options?", MessageSid: "SM1" });
    ctx.services.inbox.receive({ From: "+14155550142", Body: "Open late?", MessageSid: "SM2" });
    ctx.db.$client.run("UPDATE inbox_messages SET received_at = received_at - ?1 WHERE message_sid = 'SM1'", [ageDays * DAY]);
    return { bakery: w.bakery.id, gym: w.gym.id, fan: fan.id, gymFan: gymFan.id };
  });
  return { dir, ...ids };
}

test("list (all, or one business), show (marks it read), reply (queued in the outbox)", () => {
  const s = seeded();
  const all = json(nearcast(["inbox", "list", "--json"], s.dir));
  expect(all.map((r: { phone: string; unread: number }) => [r.phone, r.unread]).sort()).toEqual([["+14155550141", 1], ["+14155550142", 1]]);
  const one = nearcast(["inbox", "list", "--business", String(s.gym)], s.dir);
  expect(one.stdout).toContain("+14155550142");
  expect(one.stdout).not.toContain("+14155550141");

  const shown = nearcast(["inbox", "show", "--customer", String(s.fan), "--business", String(s.bakery)], s.dir);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain("+14155550141 and A Bakery");
  expect(shown.stdout).toContain("them: Gluten-free options?");
  expect(json(nearcast(["inbox", "list", "--json", "--business", String(s.bakery)], s.dir))[0].unread).toBe(0);

  const replied = nearcast(["inbox", "reply", "--customer", String(s.fan), "--business", String(s.bakery), "--message", "Yes, two kinds"], s.dir);
  expect(replied.stdout).toMatch(/^Queued your SMS answer \(delivery \d+\); the server sends it\.\n$/);
  const thread = json(nearcast(["inbox", "show", "--json", "--customer", String(s.fan), "--business", String(s.bakery)], s.dir));
  expect(thread.items.map((i: { kind: string; status: string | null }) => [i.kind, i.status])).toEqual([["reply", null], ["ownerReply", "Queued"]]);

  const refused = nearcast(["inbox", "reply", "--customer", String(s.gymFan), "--business", String(s.bakery), "--message", "Hi"], s.dir);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("does not follow this business");
});

test("prune clears replies older than replyRetentionDays; customers forget erases the person's", () => {
  const s = seeded(200);
  const pruned = json(nearcast(["prune", "--older-than", "400d", "--json"], s.dir));
  expect(pruned.replies).toMatchObject({ bodiesCleared: 1, mediaRemoved: 0 });
  const bodies = () => withDataDir(s.dir, (ctx) => ctx.db.$client.query("SELECT from_phone AS phone, body FROM inbox_messages ORDER BY id").all());
  expect(bodies()).toEqual([{ phone: "+14155550141", body: null }, { phone: "+14155550142", body: "Open late?" }]);
  const forgot = nearcast(["customers", "forget", "+14155550142"], s.dir);
  expect(forgot.stdout).toContain("and 1 stored reply.");
  expect(bodies()).toEqual([{ phone: "+14155550141", body: null }]);
});
