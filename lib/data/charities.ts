import "server-only";
import { createAdminClient } from "@/lib/supabase/admin";
import { callPublicRpc } from "./public-rpc";
import { callRpcWith, declared, type RpcOutput } from "./rpc";
import { callRpc } from "./server-rpc";

// Charity partners (supabase/schemas/37-charities.sql): what a competition promises its charity, what is owed once
// drawn (computed in SQL), what has been paid and the proof of each payment.

const donation = declared("id", "donated_on", "amount", "reference", "proof_path");
const competitionCharity = declared("name", "registered_number", "paid", "donations").with({ donations: donation });

export type CompetitionCharity = RpcOutput<"get_competition_charity", typeof competitionCharity>[number];
export type CharityDonation = CompetitionCharity["donations"][number];

/** The charity a competition names, for its public page; null when it names none. */
export const getCompetitionCharity = async (slug: string): Promise<CompetitionCharity | null> =>
  (await callPublicRpc("get_competition_charity", { p_slug: slug }, competitionCharity))[0] ?? null;

/** The same for the admin pages, whatever the competition's state. */
export const adminCompetitionCharity = async (id: string): Promise<CompetitionCharity | null> =>
  (await callRpc("admin_competition_charity", { p_id: id }, competitionCharity))[0] ?? null;

/** Records a payment to a drawn competition's charity; answers the charity as it now stands. */
export const adminRecordCharityDonation = (
  competitionId: string,
  donationFields: { amount: string; donated_on: string; reference: string; proof_path: string },
) =>
  callRpc("admin_record_charity_donation", { p_competition_id: competitionId, p: donationFields }, competitionCharity);

const charityTotal = declared("name", "registered_number", "owed", "paid", "competitions").with({
  competitions: declared("slug", "title", "status", "paid", "donations").with({ donations: donation }),
});

export type CharityTotal = RpcOutput<"list_charities", typeof charityTotal>[number];

/** Every charity a published competition supports, with its totals: the public charities page. */
export const listCharities = (): Promise<CharityTotal[]> => callPublicRpc("list_charities", {}, charityTotal, []);

const charityFigures = declared("period", "owed", "paid", "charities");
export type CharityFigures = RpcOutput<"get_transparency_charity_figures", typeof charityFigures>[number];

/** The trust page's charity figures by period (the site's secret key only; the page caches them). */
export const readTransparencyCharityFigures = (): Promise<CharityFigures[]> =>
  callRpcWith(createAdminClient(), "get_transparency_charity_figures", {}, charityFigures);
