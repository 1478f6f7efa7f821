import { formatGBP } from "@/lib/format";

// How the LabSpinner admin screens write the SQL's figures (and the editor's preview). Display only.

const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 4 });
const perSpin = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const oneDecimal = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("en-GB");

/** A probability (0.125) as odds: "12.5%"; SQL gives 6 places, all shown. */
export const formatOdds = (probability: number) => percent.format(probability);

/** The expected prize per spin (credits to 4 places, 1 credit = £1): "£0.5675". */
export const formatPerSpin = (credits: number) => perSpin.format(credits);

/** A prize in credits (1 credit = £1): "No prize" for 0, else "£2.50". */
export const formatPrize = (credits: number) => (credits === 0 ? "No prize" : formatGBP(credits));

/** An expected count of spins: "12.3". */
export const formatExpectedCount = (count: number) => oneDecimal.format(count);

/** A whole number: "1,000". */
export const formatCount = (count: number) => whole.format(count);
