// The one shape of a server action: parse the form with a zod schema, check the
// caller's role, run, and turn a database refusal into an ActionResult. Nothing
// reaches the database unparsed, and every refusal carries the same messages
// the SQL uses (spec §6), with the stable code beside them.
//
// This module is pure (the account loader is passed in) so the unit tests run
// the real wrapper; lib/actions/define-action.ts binds it to the session.
import { z } from "zod";
import { formIssueMessage } from "@/lib/validation/form-messages";
import type { MyAccount } from "@/lib/data/account-schema";
import { DbError } from "@/lib/data/errors";
import { authorise, sessionRefusal, type Role, type SessionFacts } from "@/lib/auth/calling-policy";
import { fail, invalid, type ActionResult } from "./result";

/** The signed-in account for every role but "public" (whose actions do not look it up). */
export type ActionAccount<R extends Role> = R extends "public" ? null : MyAccount;

export type ActionHandler<T> = (prev: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * The form's fields as a plain object: text (a repeated field becomes a list), or a file when the field
 * holds one (the first; the schema decides whether a file is wanted there, and its bytes are read only
 * by the action that asks for it).
 */
export function formInput(form: FormData): Record<string, string | string[] | File> {
  const input: Record<string, string | string[] | File> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    const file = all.find((value): value is File => typeof value !== "string");
    const values = all.filter((value): value is string => typeof value === "string");
    if (file) input[key] = file;
    else if (values.length > 0) input[key] = values.length === 1 ? values[0] : values;
  }
  return input;
}

/** A posted form parsed by an action's schema, with people's wording where the schema has none of its own. */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData) {
  return schema.safeParse(formInput(form), { error: formIssueMessage });
}

/** A checkbox: the form sends "on" when it is ticked and nothing when it is not. */
export const formCheckbox = z.preprocess((value) => value === "on", z.boolean());

/** A repeated field (rows of a list): formInput gives a list, or one value when the form had one box. */
export const formList = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

/**
 * Binds the wrapper to a way of finding the signed-in account, and a way of asking the auth server
 * about the session. Order: role first (so a signed-out visitor learns that, not
 * which field is wrong) and an owed second step (authorise), then the session check for sensitive
 * actions, then the schema, then `run`.
 * Errors other than DbError (including Next's redirect and notFound signals) pass through.
 *
 * Sensitive actions (every admin action, and those that say `confirmSession`: money coming in)
 * do not trust the locally verified token alone: a session signed out or revoked elsewhere keeps a
 * valid-looking token for up to an hour, and the database accepts it. They also need the second
 * step (sessionRefusal).
 */
export function defineActionWith(
  loadAccount: () => Promise<MyAccount | null>,
  sessionFacts: () => Promise<SessionFacts>,
) {
  return function defineAction<S extends z.ZodType, R extends Role, T = undefined>(
    config: {
      schema: S;
      role: R;
      confirmSession?: boolean;
      /** Runs before the second step is given: only the actions that give it (lib/actions/two-step.ts). */
      firstStep?: boolean;
    },
    run: (input: z.output<S>, account: ActionAccount<R>) => Promise<ActionResult<T>>,
  ): ActionHandler<T> & { schema: S } {
    const confirm = config.confirmSession ?? (config.role === "admin" || config.role === "super_admin");
    const handler: ActionHandler<T> = async (_prev, form) => {
      const account = config.role === "public" ? null : await loadAccount();
      const denied = authorise(config.role, account, { firstStep: config.firstStep });
      if (denied) return denied;
      const refused = confirm ? sessionRefusal(config.role, await sessionFacts()) : null;
      if (refused) return refused;
      const parsed = parseForm(config.schema, form);
      if (!parsed.success) return invalid(parsed.error.issues);
      try {
        return await run(parsed.data, account as ActionAccount<R>);
      } catch (e) {
        // A database refusal as a form shows it: its message, and its code to act on.
        if (e instanceof DbError) return fail(e.message, { code: e.code });
        throw e;
      }
    };
    // The schema travels with the action, so tests can fuzz every action's input (tests/unit/action-input-fuzz.test.ts).
    return Object.assign(handler, { schema: config.schema });
  };
}
