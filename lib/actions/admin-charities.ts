"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { CHOOSE_PROOF, MAX_PROOF_BYTES, PROOF_TOO_LARGE, sniffProofType } from "@/lib/charities/proofs";
import { isCharitySum } from "@/lib/competitions/competition-fields";
import { adminRecordCharityDonation } from "@/lib/data/charities";
import { DbError } from "@/lib/data/errors";
import { removeCharityProof, storeCharityProof } from "@/lib/data/stored-images";
import { log } from "@/lib/observability/log";
import { londonDay } from "@/lib/time/london";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";

// The admin competition page's charity partner: recording a payment to the charity, with its proof. SQL checks
// the admin, that the competition is drawn and names a charity, and every field again; the bucket checks the
// admin, size and type of the proof.

const REFERENCE = "Give the payment reference (up to 100 characters)";
const DATE = "Give the date the donation was made";

const donationSchema = z.object({
  competitionId: z.uuid({ error: "Unknown competition" }),
  amount: z
    .string()
    .trim()
    .refine(isCharitySum, "Give the amount in pounds and pence, above £0, e.g. 250 or 249.99")
    .prefault(""),
  donated_on: z
    .string()
    .trim()
    .pipe(z.iso.date({ error: DATE }))
    // A day as YYYY-MM-DD compares as text; whether it is after the publication is SQL's to say.
    .refine((day) => day <= londonDay(), "The donation cannot be dated after today")
    .prefault(""),
  reference: z.string().trim().min(1, REFERENCE).max(100, REFERENCE).prefault(""),
  // The declared type is not checked: systems label PDFs in different ways, and the bytes decide (below).
  proof: z.file(CHOOSE_PROOF).min(1, CHOOSE_PROOF).max(MAX_PROOF_BYTES, PROOF_TOO_LARGE),
});

/**
 * Records a donation: the proof is stored first, under a random name, and deleted again if SQL refuses the
 * donation (not drawn yet, a date before the publication), so a refused form leaves nothing public behind.
 */
export const recordCharityDonationAction = defineAction(
  { schema: donationSchema, role: "admin" },
  async ({ competitionId, amount, donated_on, reference, proof }) => {
    const bytes = new Uint8Array(await proof.arrayBuffer());
    const type = sniffProofType(bytes);
    if (!type) return fail(CHOOSE_PROOF, { code: "invalid_input", fieldErrors: { proof: [CHOOSE_PROOF] } });
    const proofPath = await storeCharityProof(bytes, type);
    try {
      await adminRecordCharityDonation(competitionId, { amount, donated_on, reference, proof_path: proofPath });
    } catch (e) {
      await discardProof(proofPath);
      throw e;
    }
    revalidatePath(`/admin/competitions/${competitionId}`);
    revalidateCompetitionPages();
    return ok(undefined, "Donation recorded and published with its proof.");
  },
);

/** A proof no donation refers to; a failed delete leaves an unused file, logged, not shown. */
async function discardProof(path: string): Promise<void> {
  try {
    await removeCharityProof(path);
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    log("error", "charity_proof_not_deleted", { path, error: e });
  }
}
