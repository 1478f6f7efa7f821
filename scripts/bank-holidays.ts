// England and Wales bank holidays computed by rule (date-holidays: Easter, the first and last Mondays of May,
// the last Monday of August, Christmas and New Year with their substitute days), for public.bank_holidays.
// `npm run db:bank-holidays -- 2041 2050` prints the rows of those years as a migration's insert; the db test
// checks the table against this for 2029–2035. One-off holidays (a coronation, a jubilee) are not rules: a
// migration adds them when gov.uk announces them.
import Holidays from "date-holidays";

export type BankHoliday = { day: string; name: string };

const england = new Holidays("GB", "ENG");
const wales = new Holidays("GB", "WLS");

const weekdayPublicHolidays = (calendar: Holidays, year: number): BankHoliday[] =>
  calendar
    .getHolidays(year)
    // The library lists a holiday that falls at a weekend beside its substitute day; gov.uk lists only the
    // substitute, and a weekend is never a working day anyway.
    .filter((h) => h.type === "public" && ![0, 6].includes(new Date(`${h.date.slice(0, 10)}T12:00:00Z`).getUTCDay()))
    .map((h) => ({ day: h.date.slice(0, 10), name: h.name }));

/** The bank holidays England and Wales share in `year` (they have the same ones), Monday to Friday only. */
export function englandAndWalesBankHolidays(year: number): BankHoliday[] {
  const inEngland = weekdayPublicHolidays(england, year);
  const inWales = weekdayPublicHolidays(wales, year);
  if (JSON.stringify(inEngland) !== JSON.stringify(inWales))
    throw new Error(`England and Wales differ in ${year}: the table holds one list for both`);
  return inEngland;
}

/** The SQL insert of the bank holidays from `first` to `last` inclusive. */
export function bankHolidaysInsert(first: number, last: number): string {
  const rows: string[] = [];
  for (let year = first; year <= last; year++)
    for (const { day, name } of englandAndWalesBankHolidays(year))
      rows.push(`  ('${day}', '${name.replace(/'/g, "''")}')`);
  return `insert into public.bank_holidays (day, name) values\n${rows.join(",\n")}\non conflict (day) do update set name = excluded.name;\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [first, last] = process.argv.slice(2).map(Number);
  if (!Number.isInteger(first) || !Number.isInteger(last) || last < first) {
    console.error("Usage: npm run db:bank-holidays -- <first year> <last year>");
    process.exit(1);
  }
  process.stdout.write(bankHolidaysInsert(first, last));
}
