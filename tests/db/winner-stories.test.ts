// Winners with photos: the winner's consent (or an admin's record of it, with a note) decides
// whether a photo and quote an admin published reach the public answers; withdrawing hides them at once; only
// admins write them, and every step is in the activity log.
import { describe, expect, it } from "vitest";
import { anon, asUser, asUserAtAal1, dbPerFile } from "./support";

const db = dbPerFile();

const PHOTO = `/media/winner-photos/${"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}.webp`;
const OTHER_PHOTO = "/media/winner-photos/11111111-2222-4333-8444-555555555555.jpg";

type Story = { photo: string | null; photo_alt: string | null; quote: string | null } | null;
type Winner = { draw_id: string; story: Story };

/** What the public sees of a draw's story: on /winners and on the competition page (both as anon). */
async function publicStories(drawId: string, slug: string): Promise<[Story, Story]> {
  const winners = await db().call<Winner[]>(anon, "list_winners");
  const competition = await db().call<{ draw: Winner & { id: string } }>(anon, "get_competition", { p_slug: slug });
  expect(competition.draw.id).toBe(drawId);
  return [winners.find((w) => w.draw_id === drawId)!.story, competition.draw.story];
}

const consent = (winner: string, drawId: string, given: boolean) =>
  db().rpc(asUser(winner), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: given });

const publish = (admin: string, drawId: string, photo: string | null, alt: string | null, quote: string | null) =>
  db().rpc<{ previous_photo: string | null }>(asUser(admin), "admin_set_winner_story", {
    p_draw_id: drawId,
    p_photo_path: photo,
    p_photo_alt: alt,
    p_quote: quote,
  });

const activity = (drawId: string) =>
  db().sql<{ action: string; actor_id: string; details: Record<string, unknown> }>(
    "select action, actor_id, details from public.activity_log where subject_id = $1 and action like 'winner_story.%' order by id",
    [drawId],
  );

describe("winner stories", () => {
  it("nothing is published without consent; the winner's consent lets an admin publish; withdrawal hides it at once", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId, slug } = await db().wonBy(admin, winner);

    // No consent: an admin cannot publish, and the public answers carry nothing.
    expect((await publish(admin, drawId, PHOTO, "Wanda holding the keys", "Brilliant!")).error).toMatchObject({
      hint: "story_consent_required",
    });
    expect(await publicStories(drawId, slug)).toEqual([null, null]);
    expect(await db().call(anon, "winner_photo_published", { p_photo_path: PHOTO })).toBe(false);

    // The winner consents on their prize page; the admin publishes a photo with alt text and a quote.
    expect((await consent(winner, drawId, true)).error).toBeNull();
    const [mine] = await db().call<Array<{ story: Record<string, unknown> }>>(asUser(winner), "get_my_prizes");
    expect(mine.story).toMatchObject({ consent: true, consent_source: "winner", published: false });
    expect((await publish(admin, drawId, PHOTO, "Wanda holding the keys", "Brilliant!")).data).toMatchObject({
      previous_photo: null,
    });
    const shown = { photo: PHOTO, photo_alt: "Wanda holding the keys", quote: "Brilliant!" };
    expect(await publicStories(drawId, slug)).toEqual([shown, shown]);
    expect(await db().call(anon, "winner_photo_published", { p_photo_path: PHOTO })).toBe(true);

    // Replacing the photo answers the old one, for the bucket to delete.
    expect((await publish(admin, drawId, OTHER_PHOTO, "Wanda again", "Brilliant!")).data).toMatchObject({
      previous_photo: PHOTO,
    });

    // Withdrawn: gone from every public answer at once; the console still sees what was withdrawn.
    expect((await consent(winner, drawId, false)).error).toBeNull();
    expect(await publicStories(drawId, slug)).toEqual([null, null]);
    expect(await db().call(anon, "winner_photo_published", { p_photo_path: OTHER_PHOTO })).toBe(false);
    const [prize] = await db().call<Array<{ draw_id: string; story: Record<string, unknown> }>>(
      asUser(admin),
      "admin_list_prize_fulfilment",
    );
    expect(prize.story).toMatchObject({ consent: false, consent_source: "winner", photo_path: OTHER_PHOTO });
    expect((await publish(admin, drawId, OTHER_PHOTO, "Wanda again", "Hi")).error).toMatchObject({
      hint: "story_consent_required",
    });

    // Removing answers the photo to delete.
    expect((await db().rpc(asUser(admin), "admin_remove_winner_story", { p_draw_id: drawId })).data).toMatchObject({
      previous_photo: OTHER_PHOTO,
    });

    expect(await activity(drawId)).toEqual([
      { action: "winner_story.consent_given", actor_id: winner, details: { consent: true } },
      {
        action: "winner_story.published",
        actor_id: admin,
        details: { photo: true, photo_replaced: false, quote: true },
      },
      {
        action: "winner_story.published",
        actor_id: admin,
        details: { photo: true, photo_replaced: true, quote: true },
      },
      { action: "winner_story.consent_withdrawn", actor_id: winner, details: { consent: false } },
      { action: "winner_story.removed", actor_id: admin, details: { photo: true } },
    ]);
  });

  it("only the winner gives consent, only admins at aal2 record it (with a note) or publish, and the rows are closed", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const other = await db().createPlayer();
    const { drawId, slug } = await db().wonBy(admin, winner);

    expect((await consent(other, drawId, true)).error).toMatchObject({ hint: "not_the_winner" });
    expect(
      (await db().rpc(anon, "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true })).error,
    ).toBeTruthy();

    const record = (caller: ReturnType<typeof asUser>, note: string | null) =>
      db().rpc(caller, "admin_record_winner_story_consent", { p_draw_id: drawId, p_consent: true, p_note: note });
    expect((await record(asUser(winner), "By e-mail")).error).toMatchObject({ hint: "admin_required" });
    expect((await record(asUserAtAal1(admin), "By e-mail")).error).toMatchObject({ hint: "aal2_required" });
    expect((await record(asUser(admin), "  ")).error).toMatchObject({ hint: "invalid_input" });
    expect((await record(asUser(admin), "Agreed by e-mail on 3 March")).error).toBeNull();

    // Consent recorded: still only an admin publishes, and a photo needs its alt text; a quote keeps to 280.
    expect((await publish(winner, drawId, null, null, "My own words")).error).toMatchObject({ hint: "admin_required" });
    expect((await publish(admin, drawId, PHOTO, " ", null)).error).toMatchObject({ hint: "invalid_input" });
    expect((await publish(admin, drawId, "/competitions/car.svg", "A car", null)).error).toMatchObject({
      hint: "invalid_input",
    });
    expect((await publish(admin, drawId, null, null, "x".repeat(281))).error).toMatchObject({ hint: "invalid_input" });
    expect((await publish(admin, drawId, null, null, null)).error).toMatchObject({ hint: "invalid_input" });
    expect((await publish(admin, drawId, null, null, "Over the moon")).error).toBeNull();
    expect(await publicStories(drawId, slug)).toEqual([
      { photo: null, photo_alt: null, quote: "Over the moon" },
      { photo: null, photo_alt: null, quote: "Over the moon" },
    ]);
    expect((await db().rpc(asUser(winner), "admin_remove_winner_story", { p_draw_id: drawId })).error).toMatchObject({
      hint: "admin_required",
    });

    // The table is read and written through the functions only.
    for (const caller of [anon, asUser(winner), asUser(admin)]) {
      expect((await db().as(caller, "select * from public.winner_stories")).error).toMatchObject({ code: "42501" });
    }

    const [prize] = await db().call<Array<{ story: Record<string, unknown> }>>(
      asUser(admin),
      "admin_list_prize_fulfilment",
    );
    expect(prize.story).toMatchObject({
      consent: true,
      consent_source: "admin",
      consent_note: "Agreed by e-mail on 3 March",
    });
    expect(await activity(drawId)).toEqual([
      {
        action: "winner_story.consent_recorded",
        actor_id: admin,
        details: { consent: true, note: "Agreed by e-mail on 3 March" },
      },
      {
        action: "winner_story.published",
        actor_id: admin,
        details: { photo: false, photo_replaced: false, quote: true },
      },
    ]);
  });
});
