import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { isoToLondonLocal } from "@/lib/time/london";
import {
  CompetitionForm,
  EMPTY_COMPETITION,
  type CompetitionFormValues,
  type LockableField,
} from "@/components/admin/competitions/competition-form";
import { loadCompetition } from "@/lib/competitions/load";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { updateCompetitionAction } from "@/lib/actions/admin-competitions";
import { requireAdmin } from "@/lib/auth/session";
import type { CompetitionDetail } from "@/lib/data/admin-competitions";
import { adminCompetitionCharity, type CompetitionCharity } from "@/lib/data/charities";
import { adminCompetitionPrizes, type CompetitionPrize } from "@/lib/data/competition-prizes";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Edit competition", robots: { index: false } };

// The ticket numbering and the charity partner are terms fixed at publish, like the dates.
const DATES: LockableField[] = [
  "opens_at",
  "closes_at",
  "postal_deadline",
  "draw_at",
  "ticket_numbering",
  "charity_terms",
  "charity_name",
  "charity_number",
  "charity_website",
  "charity_revenue_percent",
  "charity_fixed_amount",
];
const TERMS: LockableField[] = [
  "ticket_price",
  "total_tickets",
  "max_tickets_per_user",
  "prize_value",
  "cash_alternative",
  "skill_question",
  "prize_terms",
];

/**
 * What may change, as admin_update_competition allows it: a draft anything; a live competition not its address
 * or dates (fixed at publish); once a ticket is given (online or postal) only the wording, the prizes' descriptions
 * and images.
 */
function editRules(detail: CompetitionDetail): { locked: LockableField[]; notice: string | null } {
  const c = detail.competition;
  if (c.status === "draft") return { locked: [], notice: null };
  if (c.tickets_sold > 0 || c.postal_tickets > 0) {
    return {
      locked: ["slug", ...DATES, ...TERMS],
      notice:
        "Tickets have been given, so only the wording, the prizes' descriptions and the images can change. The " +
        "address, dates, price, ticket numbers, question and charity partner are fixed, and so are how many prizes " +
        "there are, what each is worth and its cash alternative: people bought tickets on those terms.",
    };
  }
  return {
    locked: ["slug", ...DATES],
    notice:
      "This competition is live: its address, dates and ticket numbering are fixed. So is its charity partner. No ticket has been given yet, so the rest can change.",
  };
}

/** A charity partner's fields as the form holds them: text, the sum in pounds and pence. */
function charityValues(charity: CompetitionCharity) {
  return {
    charity_terms: charity.revenue_percent !== null ? "share" : "fixed",
    charity_name: charity.name,
    charity_number: charity.registered_number,
    charity_website: charity.website ?? "",
    charity_revenue_percent: charity.revenue_percent === null ? "" : String(charity.revenue_percent),
    charity_fixed_amount: charity.fixed_amount === null ? "" : charity.fixed_amount.toFixed(2),
  } as const;
}

function formValues(
  detail: CompetitionDetail,
  charity: CompetitionCharity | null,
  prizes: CompetitionPrize[],
): CompetitionFormValues {
  const c = detail.competition;
  const answer = c.skill_options?.findIndex((o) => o === c.skill_answer) ?? -1;
  return {
    // The new form's empty values for what the competition does not have (a charity partner).
    ...EMPTY_COMPETITION,
    title: c.title,
    slug: c.slug,
    summary: c.summary,
    description: c.description,
    prize_description: c.prize_description,
    prize_value: String(c.prize_value),
    cash_alternative: c.cash_alternative === null ? "" : String(c.cash_alternative),
    images: c.images.join("\n"),
    ticket_price: c.ticket_price.toFixed(2),
    total_tickets: String(c.total_tickets),
    max_tickets_per_user: String(c.max_tickets_per_user),
    ticket_numbering: c.ticket_numbering,
    opens_at: isoToLondonLocal(c.opens_at),
    closes_at: isoToLondonLocal(c.closes_at),
    // A draft's empty dates stay empty (the defaults at publish); the hints say what they come to now.
    postal_deadline: isoToLondonLocal(c.status === "draft" ? detail.stored_dates.postal_deadline : c.postal_deadline),
    draw_at: isoToLondonLocal(c.status === "draft" ? detail.stored_dates.draw_at : c.draw_at),
    skill_question: c.skill_question ?? "",
    skill_options: c.skill_options ?? [],
    skill_answer: answer >= 0 ? String(answer) : "",
    ...(charity ? charityValues(charity) : {}),
    // The prizes after the first (the first is the competition's own fields above).
    prizes: prizes
      .filter((p) => p.prize_position > 1)
      .map((p) => ({
        description: p.description,
        value: String(p.value),
        cash_alternative: p.cash_alternative === null ? "" : String(p.cash_alternative),
      })),
  };
}

export default async function EditCompetitionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin(`/admin/competitions/${id}/edit`);
  const detail = await loadCompetition(id);
  const c = detail.competition;
  const crumbs = [{ label: c.title, href: `/admin/competitions/${c.id}` }, { label: "Edit" }];

  if (c.status !== "draft" && c.status !== "live") {
    return (
      <section className="flex max-w-3xl flex-col gap-6">
        <div>
          <AdminBreadcrumbs path="/admin/competitions" extra={crumbs} />
          <PageHeader title={`Edit ${c.title}`} />
        </div>
        <Alert variant="info" announce={false}>
          This competition can no longer be edited: online sales have ended, or it was drawn or cancelled.
        </Alert>
        <div>
          <Link href={`/admin/competitions/${c.id}`} className={buttonClasses("outline", "md")}>
            Back to the competition
          </Link>
        </div>
      </section>
    );
  }

  const { locked, notice } = editRules(detail);
  const [charity, prizes] = await Promise.all([adminCompetitionCharity(c.id), adminCompetitionPrizes(c.slug)]);
  const hints =
    c.status === "draft"
      ? {
          postal_deadline: `Empty: 2 working days after the close (bank holidays skipped); now ${formatDateTime(c.postal_deadline)}.`,
          draw_at: `Empty: at the postal deadline; now ${formatDateTime(c.draw_at)}.`,
        }
      : {};

  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions" extra={crumbs} />
        <PageHeader title={`Edit ${c.title}`} />
      </div>
      {notice ? (
        <Alert variant="info" announce={false}>
          {notice}
        </Alert>
      ) : null}
      <CompetitionForm
        action={updateCompetitionAction}
        values={formValues(detail, charity, prizes)}
        competitionId={c.id}
        locked={locked}
        hints={hints}
        label="Edit competition"
        submitLabel="Save changes"
        pendingLabel="Saving…"
      />
    </section>
  );
}
