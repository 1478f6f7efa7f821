import "server-only";
import { notFound } from "next/navigation";
import { adminCompetitionDetail, type CompetitionDetail } from "@/lib/data/admin-competitions";
import { DbError } from "@/lib/data/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The competition for an admin page, or the 404 page for an id that is malformed or unknown. */
export async function loadCompetition(id: string): Promise<CompetitionDetail> {
  if (!UUID.test(id)) notFound();
  try {
    return await adminCompetitionDetail(id);
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") notFound();
    throw e;
  }
}
