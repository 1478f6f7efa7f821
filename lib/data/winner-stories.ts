import "server-only";
import { z } from "zod";
import { callPublicRpc } from "./public-rpc";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Winners with photos (supabase/migrations/*_winner_stories.sql): the winner's consent, and the
// photo and quote an admin publishes while it stands. SQL decides who may do what and what the public sees.

/** What the public pages show of a winner: only while they consent, and only what was published. */
export const publicStorySchema = z.object({
  photo: z.string().nullable(),
  photo_alt: z.string().nullable(),
  quote: z.string().nullable(),
});
export type PublicStory = z.infer<typeof publicStorySchema>;

const consentSourceSchema = z.enum(["winner", "admin"]);

/** The console's view: the consent with who recorded it and how, and what is published (or was, if withdrawn). */
export const adminStorySchema = z.object({
  consent: z.boolean(),
  consent_source: consentSourceSchema,
  consent_note: z.string().nullable(),
  consent_changed_at: z.string(),
  consent_changed_by: z.string().nullable(),
  photo_path: z.string().nullable(),
  photo_alt: z.string().nullable(),
  quote: z.string().nullable(),
  story_updated_at: z.string().nullable(),
});
export type AdminStory = z.infer<typeof adminStorySchema>;

/** The consent as it now stands. */
const consentResult = declared("draw_id", "consent");
/** The photo a change replaced or removed (null if none), which the caller deletes from the bucket. */
const storyResult = declared("draw_id");

export const setMyStoryConsent = (drawId: string, consent: boolean) =>
  callRpc("set_my_winner_story_consent", { p_draw_id: drawId, p_consent: consent }, consentResult);

export const adminRecordStoryConsent = (drawId: string, consent: boolean, note: string) =>
  callRpc("admin_record_winner_story_consent", { p_draw_id: drawId, p_consent: consent, p_note: note }, consentResult);

export const adminSetStory = (story: { drawId: string; photo: string | null; photoAlt: string; quote: string }) =>
  callRpc(
    "admin_set_winner_story",
    { p_draw_id: story.drawId, p_photo_path: story.photo ?? "", p_photo_alt: story.photoAlt, p_quote: story.quote },
    storyResult,
  );

export const adminRemoveStory = (drawId: string) =>
  callRpc("admin_remove_winner_story", { p_draw_id: drawId }, storyResult);

export const winnerPhotoPublished = (path: string) =>
  callPublicRpc("winner_photo_published", { p_photo_path: path }, z.boolean());
