import { z } from "zod";
import { ordinal } from "@/lib/format";
import { ENUM_VALUES } from "@/lib/labels";
import { londonLocalToIso } from "@/lib/time/london";

// The competition form's fields, checked with zod before anything reaches admin_create_competition or
// admin_update_competition (which check everything again and have the last word). Shared by the form (limits
// in hints) and the actions. Money stays text ("2.50") all the way to SQL: nothing here does arithmetic on it.

export const COMPETITION_LIMITS = {
  title: { min: 3, max: 120 },
  slug: { max: 80 },
  summary: { max: 300 },
  description: { max: 5000 },
  prizeDescription: { max: 2000 },
  images: { max: 10 },
  totalTickets: { max: 1_000_000 },
  question: { max: 300 },
  options: { min: 2, max: 6 },
  charityName: { min: 2, max: 120 },
  charityWebsite: { max: 300 },
  /** Prizes drawn from one draw, the first included: SQL keeps at most 9 after the first. */
  prizes: { max: 10 },
} as const;

/** How many option boxes the form shows. */
export const OPTION_SLOTS = COMPETITION_LIMITS.options.max;

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
// No field has a default here: the new form fills missing fields with "" first (fillMissing), and the edit
// form's absent (disabled) fields must stay absent, so they are neither checked nor sent.
/** Browsers post a textarea's line breaks as CRLF; the database keeps \n. */
export const plainNewlines = (value: string) => value.replace(/\r\n?/g, "\n");

const text = (max: number, message: string) => z.string().overwrite(plainNewlines).trim().max(max, message);

const requiredText = (min: number, max: number, message: string) =>
  z.string().overwrite(plainNewlines).trim().min(min, message).max(max, message);

const money = (message: string) => z.string().trim().regex(MONEY, message);

const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/** A datetime-local field; empty is allowed (null) unless `required`. */
const dateTime = (message: string, required = false) =>
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === "") {
        if (required) ctx.addIssue({ code: "custom", message });
        return null;
      }
      const iso = londonLocalToIso(value);
      if (!iso) ctx.addIssue({ code: "custom", message });
      return iso;
    });

/** What a competition promises its charity partner: nothing (no partner), a share of ticket revenue, or a sum. */
export const CHARITY_TERMS = ["none", "share", "fixed"] as const;
export type CharityTerms = (typeof CHARITY_TERMS)[number];

/** The charity's largest sum (its fixed sum, or one donation), in pounds: SQL's limit. */
const CHARITY_SUM_MAX = 10_000_000;

/** A sum of pounds and pence owed or paid to a charity: above £0 and at most £10,000,000 ("500", "499.99"). */
export const isCharitySum = (v: string) => MONEY.test(v) && /[1-9]/.test(v) && Number(v) <= CHARITY_SUM_MAX;

/** A percentage of at most two decimals, above 0 and at most 100 ("10", "12.5"). */
const isSharePercent = (v: string) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && /[1-9]/.test(v) && Number(v) <= 100;

/**
 * The numbers the charity regulators give: the Charity Commission (England and Wales: 6 or 7 digits), OSCR
 * (Scotland: SC and 6 digits) and the Charity Commission for Northern Ireland (NIC and 6 digits). Read without
 * spaces and in capitals, as SQL reads it.
 */
const CHARITY_NUMBER = /^(SC[0-9]{6}|NIC[0-9]{6}|[0-9]{6,7})$/;
const CHARITY_WEBSITE = /^https:\/\/[^\s/]+(\/\S*)?$/;

export const CHARITY_MESSAGES = {
  terms: "Choose what the charity receives",
  name: "Give the charity's name (2 to 120 characters)",
  number:
    "Give the charity's registered number: 6 or 7 digits (England and Wales), SC and 6 digits (Scotland) or NIC and 6 digits (Northern Ireland)",
  website: "Give the charity's website as an https:// address, or leave it empty",
  percent: "Give the charity's share as a percentage above 0 and at most 100, e.g. 10 or 12.5",
  fixed: "Give the charity's sum in pounds above £0 and at most £10,000,000, e.g. 500 or 499.99",
} as const;

/** The largest prize value or cash alternative SQL takes, in pounds. */
const PRIZE_SUM_MAX = 10_000_000;

/** The fields of one prize after the first, each named by the prize's position: prize_2_description… */
export const FURTHER_PRIZE_FIELDS = ["description", "value", "cash_alternative"] as const;
export type FurtherPrizeField = (typeof FURTHER_PRIZE_FIELDS)[number];
type FurtherPrizeKey = `prize_${number}_${FurtherPrizeField}`;
export const furtherPrizeField = (position: number, field: FurtherPrizeField): FurtherPrizeKey =>
  `prize_${position}_${field}`;

/** The positions a further prize may have: 2nd to 10th. */
const FURTHER_POSITIONS = Array.from({ length: COMPETITION_LIMITS.prizes.max - 1 }, (_, i) => i + 2);

/** Each further prize's messages, naming the prize ("Describe the 2nd prize…"). */
const furtherPrizeMessages = (position: number) => {
  const prize = `${ordinal(position)} prize`;
  return {
    description: `Describe the ${prize} (up to 2,000 characters)`,
    value: `Give the ${prize}'s value in pounds, at most £10,000,000, e.g. 250 or 249.99`,
    cash_alternative: `Give the ${prize}'s cash alternative in pounds above £0 and at most £10,000,000, or leave it empty`,
  } satisfies Record<FurtherPrizeField, string>;
};

/**
 * Every further prize's fields, as text. They are read only up to `prize_count` (in fieldShape below): a prize
 * removed on the form is simply not sent, and fields past the count are ignored.
 */
const furtherPrizeShape = Object.fromEntries(
  FURTHER_POSITIONS.flatMap((position) =>
    FURTHER_PRIZE_FIELDS.map((field) => [furtherPrizeField(position, field), z.string().optional()]),
  ),
) as Record<FurtherPrizeKey, z.ZodOptional<z.ZodString>>;

/** A list field: one value, or several when the form repeats the name. */
const list = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()));

const fieldShape = {
  title: requiredText(
    COMPETITION_LIMITS.title.min,
    COMPETITION_LIMITS.title.max,
    "Give a title of 3 to 120 characters",
  ),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(COMPETITION_LIMITS.slug.max, "Keep the address to 80 characters")
    .regex(/^([a-z0-9]+(-[a-z0-9]+)*)?$/, "Use lower-case letters, digits and single hyphens (e.g. steam-deck-oled)"),
  summary: text(COMPETITION_LIMITS.summary.max, "Keep the summary to 300 characters"),
  description: text(COMPETITION_LIMITS.description.max, "Keep the description to 5,000 characters"),
  prize_description: requiredText(
    1,
    COMPETITION_LIMITS.prizeDescription.max,
    "Describe the prize (up to 2,000 characters)",
  ),
  prize_value: money("Give the prize value in pounds, e.g. 1200 or 1199.99"),
  cash_alternative: z
    .string()
    .trim()
    .refine(
      (v) => v === "" || (MONEY.test(v) && /[1-9]/.test(v)),
      "Give the cash alternative in pounds above £0, or leave it empty",
    ),
  images: z
    .string()
    .transform((v) =>
      v
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .max(1000, "An image address is at most 1,000 characters")
            // No backslash (browsers read `/\` as `//`, another host), no spaces or control characters.
            .regex(
              /^(\/[^/\\]|https:\/\/)[^\\\s\p{Cc}]*$/u,
              "Each image is a path starting with / or an https:// address, one per line",
            ),
        )
        .max(COMPETITION_LIMITS.images.max, "At most 10 images"),
    ),
  ticket_price: money("Give the ticket price in pounds and pence, at least £0.25").refine(
    (v) => !MONEY.test(v) || (Number(v) >= 0.25 && Number(v) <= 10_000),
    "The ticket price must be from £0.25 to £10,000",
  ),
  total_tickets: wholeNumber("Give the number of tickets, from 1 to 1,000,000", 1, COMPETITION_LIMITS.totalTickets.max),
  max_tickets_per_user: wholeNumber("Give the tickets one person may hold, at least 1", 1, 1_000_000),
  ticket_numbering: z.enum(ENUM_VALUES.ticket_numbering, { error: "Choose how the tickets are numbered" }),
  opens_at: dateTime("Give the opening date and time"),
  closes_at: dateTime("Give the closing date and time", true),
  postal_deadline: dateTime("Give the postal deadline as a date and time, or leave it empty"),
  draw_at: dateTime("Give the draw time as a date and time, or leave it empty"),
  skill_question: text(COMPETITION_LIMITS.question.max, "Keep the question to 300 characters"),
  skill_options: list,
  skill_answer: z.string(),
  // Each charity field is checked against the terms chosen (crossCheck): with none, the others are not read.
  // No radio ticked (the new form's fillMissing gives "") is no charity partner.
  charity_terms: z
    .string()
    .transform((v) => v || "none")
    .pipe(z.enum(CHARITY_TERMS, { error: CHARITY_MESSAGES.terms })),
  charity_name: z.string().trim(),
  charity_number: z.string().transform((v) => v.replace(/\s/g, "").toUpperCase()),
  charity_website: z.string().trim(),
  charity_revenue_percent: z.string().trim(),
  charity_fixed_amount: z.string().trim(),
  // How many prizes the form holds, the first included: the further prizes' fields are read up to it. The new
  // form's fillMissing gives "" (the first prize alone); the edit form sends it whenever it shows the prizes.
  prize_count: z
    .string()
    .trim()
    .transform((v) => v || "1")
    .pipe(
      z
        .string()
        .regex(/^\d{1,2}$/, "Give at most 10 prizes")
        .transform(Number)
        .pipe(
          z
            .number()
            .int()
            .min(1, "Give at most 10 prizes")
            .max(COMPETITION_LIMITS.prizes.max, "Give at most 10 prizes"),
        ),
    ),
};

/** The new form: a field the browser did not send is empty (an unticked radio sends nothing). */
function fillMissing(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  const filled: Record<string, unknown> = { ...input };
  for (const key of Object.keys(fieldShape)) if (filled[key] === undefined && key !== "skill_options") filled[key] = "";
  return filled;
}

type Parsed = { [K in keyof typeof fieldShape]?: z.output<(typeof fieldShape)[K]> } & {
  [K in FurtherPrizeKey]?: string;
};

/**
 * The fields that parsed without a problem: the checks between fields run even when another field is wrong,
 * so the form shows every error at once, but only over values that are what their field says.
 */
function soundFields(ctx: z.RefinementCtx<Parsed>): Parsed {
  if (typeof ctx.value !== "object" || ctx.value === null) return {};
  const wrong = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  return Object.fromEntries(Object.entries(ctx.value).filter(([key]) => !wrong.has(key))) as Parsed;
}

/** Run the checks between fields whatever else is wrong (zod skips a refinement after a field's issue). */
const always = { when: () => true };

/** Checks between fields, each reported on the field to fix; only between fields that were sent and are sound. */
function crossCheck(_: Parsed, ctx: z.RefinementCtx<Parsed>) {
  const v = soundFields(ctx);
  if (
    v.total_tickets !== undefined &&
    v.max_tickets_per_user !== undefined &&
    v.max_tickets_per_user > v.total_tickets
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["max_tickets_per_user"],
      message: "Tickets per person cannot be more than the total number of tickets",
    });
  }
  if (v.opens_at && v.closes_at && v.closes_at <= v.opens_at) {
    ctx.addIssue({ code: "custom", path: ["closes_at"], message: "The close must be after the opening" });
  }
  if (v.closes_at && v.postal_deadline && v.postal_deadline < v.closes_at) {
    ctx.addIssue({
      code: "custom",
      path: ["postal_deadline"],
      message: "The postal deadline cannot be before the close: the free route must not be shorter than the paid one",
    });
  }
  const drawFloor = v.postal_deadline ?? v.closes_at;
  if (v.draw_at && drawFloor && v.draw_at < drawFloor) {
    ctx.addIssue({
      code: "custom",
      path: ["draw_at"],
      message: "The draw must be at or after the postal deadline",
    });
  }
  if (v.skill_question && v.skill_options !== undefined) {
    const options = v.skill_options.map((o) => o.trim());
    const given = options.filter(Boolean);
    if (given.length < COMPETITION_LIMITS.options.min) {
      ctx.addIssue({ code: "custom", path: ["skill_options"], message: "Give at least 2 answers to choose from" });
    } else if (new Set(given.map((o) => o.toLowerCase())).size !== given.length) {
      ctx.addIssue({ code: "custom", path: ["skill_options"], message: "The answers to choose from must all differ" });
    } else if (given.some((o) => o.length > COMPETITION_LIMITS.question.max)) {
      ctx.addIssue({ code: "custom", path: ["skill_options"], message: "Keep each answer to 300 characters" });
    }
    const chosen = answerOf(options, v.skill_answer);
    if (!chosen) {
      ctx.addIssue({
        code: "custom",
        path: ["skill_answer"],
        message: "Choose which of the answers is correct",
      });
    }
  }
  charityCheck(v, ctx);
  furtherPrizeCheck(v, ctx);
}

/** A sum of pounds and pence of at most £10,000,000 (a prize's value, "0" allowed). */
const isPrizeSum = (v: string) => MONEY.test(v) && Number(v) <= PRIZE_SUM_MAX;

/** One further prize as typed (missing fields are empty), read as SQL will read it. */
function furtherPrizeOf(v: Parsed, position: number) {
  const read = (field: FurtherPrizeField) => (v[furtherPrizeField(position, field)] ?? "").trim();
  return {
    description: plainNewlines(read("description")).trim(),
    value: read("value"),
    cash_alternative: read("cash_alternative"),
  };
}

/** The positions of the further prizes the form sent (none when it sent no count). */
const sentPositions = (v: Parsed) => FURTHER_POSITIONS.filter((position) => position <= (v.prize_count ?? 1));

/** Each further prize the count says was sent, each message on the field to fix, naming the prize. */
function furtherPrizeCheck(v: Parsed, ctx: z.RefinementCtx<Parsed>) {
  for (const position of sentPositions(v)) {
    const prize = furtherPrizeOf(v, position);
    const messages = furtherPrizeMessages(position);
    const issue = (field: FurtherPrizeField) =>
      ctx.addIssue({ code: "custom", path: [furtherPrizeField(position, field)], message: messages[field] });
    if (prize.description.length < 1 || prize.description.length > COMPETITION_LIMITS.prizeDescription.max) {
      issue("description");
    }
    if (!isPrizeSum(prize.value)) issue("value");
    if (
      prize.cash_alternative !== "" &&
      !(isPrizeSum(prize.cash_alternative) && /[1-9]/.test(prize.cash_alternative))
    ) {
      issue("cash_alternative");
    }
  }
}

/** The charity's fields, each checked when the terms chosen need it; nothing when the terms were not sent. */
function charityCheck(v: Parsed, ctx: z.RefinementCtx<Parsed>) {
  if (v.charity_terms === undefined || v.charity_terms === "none") return;
  const issue = (field: keyof Parsed, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
  const name = v.charity_name ?? "";
  const { min, max } = COMPETITION_LIMITS.charityName;
  if (name.length < min || name.length > max) issue("charity_name", CHARITY_MESSAGES.name);
  if (!CHARITY_NUMBER.test(v.charity_number ?? "")) issue("charity_number", CHARITY_MESSAGES.number);
  const website = v.charity_website ?? "";
  if (website !== "" && (website.length > COMPETITION_LIMITS.charityWebsite.max || !CHARITY_WEBSITE.test(website))) {
    issue("charity_website", CHARITY_MESSAGES.website);
  }
  if (v.charity_terms === "share" && !isSharePercent(v.charity_revenue_percent ?? "")) {
    issue("charity_revenue_percent", CHARITY_MESSAGES.percent);
  }
  if (v.charity_terms === "fixed" && !isCharitySum(v.charity_fixed_amount ?? "")) {
    issue("charity_fixed_amount", CHARITY_MESSAGES.fixed);
  }
}

/** The option the radio at index `answer` marks, if it marks a given one. */
function answerOf(options: string[], answer: string | undefined): string | undefined {
  return answer !== undefined && /^\d+$/.test(answer) ? options[Number(answer)] || undefined : undefined;
}

/** The charity as admin_create_competition / admin_update_competition read it: its share or its sum, as text. */
export type CharityForSql = {
  name: string;
  registered_number: string;
  website: string | null;
  revenue_percent?: string;
  fixed_amount?: string;
};

/** A prize after the first as admin_create_competition / admin_update_competition read it: money as text. */
export type FurtherPrizeForSql = { description: string; value: string; cash_alternative: string | null };

/** The fields as admin_create_competition / admin_update_competition read them; only the ones sent. */
export type CompetitionFieldsForSql = {
  images?: string[];
  prizes?: FurtherPrizeForSql[];
  [field: string]: string | number | string[] | CharityForSql | FurtherPrizeForSql[] | null | undefined;
};

/** The charity the form names, null for none (SQL then removes a draft's), or undefined when the form sent no terms. */
function charityOf(v: Parsed): CharityForSql | null | undefined {
  if (v.charity_terms === undefined) return undefined;
  if (v.charity_terms === "none") return null;
  return {
    name: v.charity_name ?? "",
    registered_number: v.charity_number ?? "",
    website: v.charity_website || null,
    ...(v.charity_terms === "share"
      ? { revenue_percent: v.charity_revenue_percent ?? "" }
      : { fixed_amount: v.charity_fixed_amount ?? "" }),
  };
}

function toSql(v: Parsed): CompetitionFieldsForSql {
  const out: CompetitionFieldsForSql = {};
  const copy = [
    "title",
    "slug",
    "summary",
    "description",
    "prize_description",
    "prize_value",
    "ticket_price",
    "total_tickets",
    "max_tickets_per_user",
    "ticket_numbering",
    "closes_at",
    "postal_deadline",
    "draw_at",
  ] as const;
  for (const key of copy) if (v[key] !== undefined) out[key] = v[key];
  if (v.images !== undefined) out.images = v.images;
  // An empty opening means "now": left out, so SQL keeps what it has (a new draft opens when made).
  if (v.opens_at) out.opens_at = v.opens_at;
  if (v.cash_alternative !== undefined) out.cash_alternative = v.cash_alternative === "" ? null : v.cash_alternative;
  if (v.skill_question !== undefined) {
    out.skill_question = v.skill_question === "" ? null : v.skill_question;
    if (v.skill_question !== "" && v.skill_options !== undefined) {
      const options = v.skill_options.map((o) => o.trim());
      out.skill_options = options.filter(Boolean);
      out.skill_answer = answerOf(options, v.skill_answer) ?? null;
    }
  }
  const charity = charityOf(v);
  if (charity !== undefined) out.charity = charity;
  // The list replaces the competition's: sent whole whenever the form sent its count, an empty list for none.
  if (v.prize_count !== undefined) {
    out.prizes = sentPositions(v).map((position) => {
      const prize = furtherPrizeOf(v, position);
      return { ...prize, cash_alternative: prize.cash_alternative || null };
    });
  }
  return out;
}

/** The new-competition form: every field as typed. */
export const createCompetitionSchema = z.preprocess(
  fillMissing,
  z
    .object({ ...fieldShape, ...furtherPrizeShape })
    .superRefine(crossCheck, always)
    .transform((v) => toSql(v)),
);

/**
 * The edit form: what may change in the competition's state is enabled, and a disabled field is not sent,
 * so every field is optional here; SQL refuses anything the state does not allow.
 */
export const updateCompetitionSchema = z
  .object({ ...fieldShape, ...furtherPrizeShape })
  .partial()
  .extend({ id: z.string().uuid("Unknown competition") })
  .superRefine((v, ctx) => crossCheck(v, ctx as unknown as z.RefinementCtx<Parsed>), always)
  .transform(({ id, ...v }) => ({ id, fields: toSql(v) }));
