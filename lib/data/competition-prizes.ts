import "server-only";
import { DbError } from "./errors";
import { callPublicRpc } from "./public-rpc";
import { declared, type RpcOutput } from "./rpc";
import { callRpc } from "./server-rpc";
import { publicStorySchema, type PublicStory } from "./winner-stories";

// A competition's prizes in order (supabase/schemas/33-draws.sql, get_competition_prizes): the first is the
// competition's own prize, the others its further prizes, each drawn from the same draw. Once drawn, each prize is
// as it was drawn, with its draw, winning ticket, published winner, step and published story.

/** What SQL always fills; the cash alternative, and everything about the draw until it is made, may be null. */
const competitionPrize = declared("prize_position", "description", "value");

type Declared = RpcOutput<"get_competition_prizes", typeof competitionPrize>[number];
/** One prize; its story (the winner's photo and quote, only while they consent) read with zod. */
export type CompetitionPrize = Omit<Declared, "story"> & { story: PublicStory | null };

const withStory = (prizes: Declared[]): CompetitionPrize[] =>
  prizes.map((prize) => ({ ...prize, story: publicStorySchema.nullable().parse(prize.story) }));

/** A published competition's prizes, as anon for the cached public pages; none when there is no such competition. */
export async function getCompetitionPrizes(slug: string): Promise<CompetitionPrize[]> {
  try {
    return withStory(await callPublicRpc("get_competition_prizes", { p_slug: slug }, competitionPrize));
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") return [];
    throw e;
  }
}

/** The same for the admin pages, a draft's included. */
export const adminCompetitionPrizes = async (slug: string): Promise<CompetitionPrize[]> =>
  withStory(await callRpc("get_competition_prizes", { p_slug: slug }, competitionPrize));
