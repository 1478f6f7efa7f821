import type { z } from "zod";

/**
 * What a form field says when its schema has no message of its own for what went wrong: zod's
 * defaults ("Invalid input: expected string, received undefined") are for developers. These arise
 * when a form arrives without a field its page always sends (an old page, a forged request), or with
 * a value no control on the page can produce. Used for every action's parse (lib/actions/action.ts);
 * a message a schema sets itself always wins. Undefined leaves zod's own.
 */
export function formIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === "invalid_type")
    return issue.input === undefined
      ? "This form is missing a field. Please reload the page and try again."
      : "This value is not one the form can send. Please reload the page and try again.";
  if (issue.code === "invalid_value") return "Please choose one of the options offered.";
  if (issue.code === "unrecognized_keys") return "This form has fields it does not expect.";
  return undefined;
}
