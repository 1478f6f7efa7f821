/**
 * The site's refusal after a wrong skill answer, up to the moment the question opens again: HH:MM, with the date when
 * that is not today in the UK (a wrong answer shortly before midnight; lib/format.ts formatLondonTime, SQL's private.london_time_text).
 */
export function wrongAnswerWait(refusal: "That answer is not correct." | "You gave a wrong answer."): RegExp {
  return new RegExp(
    `^${refusal.replaceAll(".", "\\.")} You can try again at \\d\\d:\\d\\d(?: on \\d{1,2} [A-Z][a-z]+ \\d{4})?$`,
  );
}
