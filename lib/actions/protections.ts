"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { BREAK_PERIODS, SELF_EXCLUSION_OPTIONS } from "@/lib/protections/options";
import { DbError, type DbErrorCode } from "@/lib/data/errors";
import { dismissLimitPrompt } from "@/lib/data/payments";
import { closeAccount, selfExclude, setMonthlyLimit, takeBreak, type Protections } from "@/lib/data/protections";
import { formatDateTime, formatGBP } from "@/lib/format";
import { defineAction } from "./define-action";
import { ok, type ActionResult } from "./result";

// A refusal that means the account is already restricted: the page and header must show it.
const RESTRICTED: ReadonlySet<DbErrorCode> = new Set(["on_break", "self_excluded", "account_closed"]);

/**
 * Runs a change, then re-renders the page and the header with the new state (also after a restriction
 * refusal). `message` is for a form that stays on screen; a confirmation dialog closes and the page says it.
 */
async function change(
  run: () => Promise<Protections>,
  message?: (protections: Protections) => string,
): Promise<ActionResult<Protections>> {
  try {
    const protections = await run();
    refresh();
    return ok(protections, message?.(protections));
  } catch (e) {
    if (e instanceof DbError && RESTRICTED.has(e.code)) refresh();
    throw e; // the wrapper shows the refusal's message with its code
  }
}

const limitSchema = z
  .object({
    choice: z.enum(["limit", "none"], { error: "Choose a limit or no limit" }),
    amount: z.string().trim().optional(),
  })
  .transform((form, ctx) => {
    if (form.choice === "none") return { limit: null };
    // Pounds and pence as typed; the number goes to SQL as is, nothing is worked out here.
    if (!form.amount || !/^\d{1,7}(\.\d{1,2})?$/.test(form.amount)) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter a limit in pounds, like 100 or 25.50" });
      return z.NEVER;
    }
    return { limit: Number(form.amount) };
  });

/** Sets the monthly limit (£0 allowed; "none" removes it). SQL applies a decrease now and an increase later. */
export const setMonthlyLimitAction = defineAction({ schema: limitSchema, role: "user" }, ({ limit }) =>
  change(
    () => setMonthlyLimit(limit),
    (p) =>
      p.pending_limit_from
        ? `Your ${p.pending_limit === null ? "removal of the limit" : `new limit of ${formatGBP(p.pending_limit)}`} applies from ${formatDateTime(p.pending_limit_from)}.`
        : p.monthly_limit === null
          ? "You have no monthly limit."
          : `Your monthly limit is now ${formatGBP(p.monthly_limit)}.`,
  ),
);

const breakSchema = z.object({ period: z.enum(BREAK_PERIODS, { error: "Choose how long your break lasts" }) });

/** Starts a break; it cannot be ended early. */
export const takeBreakAction = defineAction({ schema: breakSchema, role: "user" }, ({ period }) =>
  change(() => takeBreak(period)),
);

const exclusionMonths = SELF_EXCLUSION_OPTIONS.map((o) => String(o.months)) as [string, ...string[]];
const exclusionSchema = z.object({
  months: z.enum(exclusionMonths, { error: "Choose how long to exclude yourself for" }).transform(Number),
});

/** Self-excludes for one of the offered lengths; it cannot be ended early. */
export const selfExcludeAction = defineAction({ schema: exclusionSchema, role: "user" }, ({ months }) =>
  change(() => selfExclude(months)),
);

/** Closes the account for good. */
export const closeAccountAction = defineAction({ schema: z.object({}), role: "user" }, () => change(closeAccount));

/**
 * "Not now" on the monthly-limit invitation. Role 'user': the invitation comes at sign-up, before
 * approval, as well as before a first top-up.
 */
export const dismissLimitPromptAction = defineAction({ schema: z.object({}), role: "user" }, async () => {
  await dismissLimitPrompt();
  refresh();
  return ok(undefined);
});
