// What the admin mail screen reads and writes: previews of every kind and segment, a send and a repeated send, the
// campaigns list, and the outbox paged and filtered with rows in every status.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, eachPage } from "./support";

const db = dbPerFile();

const BODY = "Our new competitions open on Friday. Good luck to everyone who enters!";

let admin: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
});

describe("the admin mail screen's calls", () => {
  it("answer previews, sends, campaigns and outbox pages", async () => {
    const adult = (name: string, consent: boolean) =>
      db().createUser({
        name,
        approved: true,
        credits: 5,
        meta: { name, date_of_birth: "1990-05-17", marketing_consent: consent },
      });
    const keen = await adult("Kim Keen", true);
    await adult("Quin Quiet", false);
    const resting = await adult("Rory Resting", true);
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    const competition = await db().createCompetition(admin);
    await db().call(asUser(keen), "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" });

    expect(await db().call(asUser(admin), "admin_list_mail_campaigns")).toEqual([]);
    const recipients: Record<string, number> = {};
    for (const [kind, segment, competitionId] of [
      ["marketing", "all_players", null],
      ["service", "all_players", null],
      ["marketing", "competition_entrants", competition],
      ["service", "no_recent_entry", null],
    ] as const) {
      const now = await db().call<{ recipients: number; subject: string }>(asUser(admin), "admin_preview_mail", {
        p_kind: kind,
        p_segment: segment,
        p_competition_id: competitionId,
        p_subject: "  New competitions  ",
        p_body: `${BODY}\r\nSee you there.`,
      });
      expect(now.subject).toBe("New competitions");
      recipients[`${kind}/${segment}`] = now.recipients;
    }
    // Marketing goes only to those who consented; a service message to every player.
    expect(recipients["marketing/all_players"]).toBeLessThan(recipients["service/all_players"]);
    expect(recipients["marketing/competition_entrants"]).toBe(1);

    const sendArgs = {
      p_kind: "marketing",
      p_segment: "all_players",
      p_competition_id: null,
      p_subject: "New competitions",
      p_body: BODY,
      p_request_id: "7f1d2b9e-3c4a-4e5f-8a6b-9c0d1e2f3a4b",
    };
    const sent = await db().call<{ id: string; recipients: number }>(asUser(admin), "admin_send_mail", sendArgs);
    expect(sent).toMatchObject({ already_sent: false, recipients: recipients["marketing/all_players"] });
    // The same request again sends nothing more and says so.
    const again = await db().call(asUser(admin), "admin_send_mail", sendArgs);
    expect(again).toMatchObject({ id: sent.id, already_sent: true });
    const entrants = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", {
      p_kind: "service",
      p_segment: "competition_entrants",
      p_competition_id: competition,
      p_subject: "Your competition",
      p_body: BODY,
    });
    // Rows in every status.
    await db().sql(
      `update public.mail_outbox set status = 'sent', sent_at = now(), transport = 'outbox', attempts = 1
        where id = (select min(id) from public.mail_outbox where campaign_id = $1)`,
      [sent.id],
    );
    await db().sql(
      `update public.mail_outbox set status = 'failed', error = 'Mailbox full', attempts = 3
        where id = (select max(id) from public.mail_outbox where campaign_id = $1)`,
      [entrants.id],
    );

    const campaigns = await db().call<{ id: string }[]>(asUser(admin), "admin_list_mail_campaigns");
    expect(campaigns.map((c) => c.id)).toEqual([entrants.id, sent.id]);
    expect(await db().call(asUser(admin), "admin_list_mail_campaigns", { p_limit: 1 })).toEqual([campaigns[0]]);
    const unknown = "00000000-0000-4000-8000-00000000dead";
    for (const [campaignId, status] of [
      [null, null],
      [sent.id, null],
      [entrants.id, "failed"],
      [null, "sent"],
      [null, "queued"],
      [unknown, null],
    ] as const) {
      const rows: { campaign_id: string | null; status: string }[] = [];
      await eachPage<number>(async (before) => {
        const now: { rows: typeof rows; next_before: number | null } = await db().call(
          asUser(admin),
          "admin_list_mail_outbox",
          { p_campaign_id: campaignId, p_status: status, p_before: before, p_limit: 2 },
        );
        rows.push(...now.rows);
        return now.next_before;
      });
      if (campaignId) expect(rows.every((r) => r.campaign_id === campaignId)).toBe(true);
      if (status) expect(rows.every((r) => r.status === status)).toBe(true);
      if (campaignId === unknown) expect(rows).toEqual([]);
      else if (status !== "queued") expect(rows.length).toBeGreaterThan(0);
    }
  });
});
