import { Link } from "@/components/ui/link";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AdminSpinner } from "@/lib/data/admin-spinner";
import { formatDateTime } from "@/lib/format";
import { chiSquareTest } from "@/lib/spinner/chi-square";
import { PostalRequestForm } from "./postal-request-form";
import { SegmentSwatch } from "./segment-swatch";
import { formatCount, formatExpectedCount, formatOdds, formatPerSpin, formatPrize } from "@/lib/spinner/format";
import { WheelSwitch } from "./wheel-switch";

// The sections of /admin/labspinner: server components, figures as the SQL computed them (the chi-square test
// and the expected counts are worked out here from the SQL's probabilities and counts).

const savedBy = (email: string | null) => (email ? ` by ${email}` : " with the demo data");

/** The live wheel: its version, on or off, each segment with the SQL's odds, and the expected prize per spin. */
export function LiveWheelSection({ data }: { data: AdminSpinner }) {
  const { wheel } = data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Live wheel</CardTitle>
        <CardDescription>
          Version {wheel.wheel_id}, saved {formatDateTime(wheel.created_at)}
          {savedBy(wheel.created_by_email)}. These are the odds published on /labspinner.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <WheelSwitch enabled={data.enabled} />
        <FigureList
          items={[
            ["Segments", String(wheel.segments.length)],
            ["Total weight", formatCount(wheel.total_weight)],
            ["Expected prize per spin", formatPerSpin(wheel.expected_prize)],
            ["Spins on this version", formatCount(data.spins)],
          ]}
        />
        <Table cards>
          <TableCaption visuallyHidden>Live wheel odds</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Segment</TableHead>
              <TableHead>Label</TableHead>
              <TableHead className="text-right">Prize</TableHead>
              <TableHead className="text-right">Weight</TableHead>
              <TableHead className="text-right">Odds</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {wheel.segments.map((s) => (
              <TableRow key={s.position}>
                <TableCell label="Segment" className="tabular-nums">
                  {s.position}
                </TableCell>
                <TableCell label="Label">
                  <SegmentSwatch label={s.label} colour={s.colour} labelColour={s.label_colour} />
                </TableCell>
                <TableCell label="Prize" className="text-right tabular-nums">
                  {formatPrize(s.prize_credits)}
                </TableCell>
                <TableCell label="Weight" className="text-right tabular-nums">
                  {formatCount(s.weight)}
                </TableCell>
                <TableCell label="Odds" className="text-right tabular-nums">
                  {formatOdds(s.probability)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** Below this many expected spins in a segment the chi-square approximation is not to be trusted. */
const MIN_EXPECTED = 5;
/** A p-value below this is called out: the spins are further from the odds than chance would usually put them. */
const ALARM_P = 0.01;

const statistic = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });
const pValue = (p: number) => (p < 0.0001 ? "below 0.0001" : p.toFixed(4));

/** Observed spins per segment on the live wheel beside the expected ones, with Pearson's chi-square test. */
export function ObservedSection({ data }: { data: AdminSpinner }) {
  const { wheel, spins } = data;
  const observed = wheel.segments.map((s) => data.observed.find((o) => o.position === s.position)?.count ?? 0);
  const expected = wheel.segments.map((s) => s.probability * spins);
  // The test takes the weights themselves (it divides by their sum): exact, where the probabilities are rounded.
  const test = chiSquareTest(
    observed,
    wheel.segments.map((s) => s.weight),
  );
  const tooFew = expected.some((count) => count < MIN_EXPECTED);
  return (
    <section aria-labelledby="observed-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="observed-heading" className="text-lg font-semibold">
          Observed against expected
        </h2>
        <p className="text-sm text-muted-foreground">
          Spins on the live wheel (version {wheel.wheel_id}) only: an older version had other weights.
        </p>
      </div>
      <Table cards>
        <TableCaption visuallyHidden>Observed spins against the odds, per segment of the live wheel</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Segment</TableHead>
            <TableHead className="text-right">Expected probability</TableHead>
            <TableHead className="text-right">Expected count</TableHead>
            <TableHead className="text-right">Observed count</TableHead>
            <TableHead className="text-right">Observed share</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {wheel.segments.map((s, i) => (
            <TableRow key={s.position}>
              <TableCell label="Segment">
                {s.position}. {s.label}
              </TableCell>
              <TableCell label="Expected probability" className="text-right tabular-nums">
                {formatOdds(s.probability)}
              </TableCell>
              <TableCell label="Expected count" className="text-right tabular-nums">
                {formatExpectedCount(expected[i])}
              </TableCell>
              <TableCell label="Observed count" className="text-right tabular-nums">
                {formatCount(observed[i])}
              </TableCell>
              <TableCell label="Observed share" className="text-right tabular-nums">
                {spins === 0 ? "None yet" : formatOdds(observed[i] / spins)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {spins === 0 ? (
        <p className="text-sm text-muted-foreground">No spins on this version yet, so there is nothing to test.</p>
      ) : (
        <>
          <FigureList
            items={[
              ["Spins", formatCount(spins)],
              ["Chi-square statistic", statistic.format(test.statistic)],
              ["Degrees of freedom", String(test.degreesOfFreedom)],
              ["p-value", pValue(test.pValue)],
            ]}
          />
          {tooFew ? (
            <Alert variant="info" announce={false}>
              Too few spins for the test to mean much yet: some segments expect fewer than {MIN_EXPECTED} spins, and the
              chi-square test needs about {MIN_EXPECTED} in each.
            </Alert>
          ) : test.pValue < ALARM_P ? (
            <Alert variant="warning" announce={false}>
              The spins are further from the odds than chance would usually put them (p below {ALARM_P}). Chance still
              does this about 1 time in {Math.round(1 / ALARM_P)}; if it stays low as spins add up, look into it.
            </Alert>
          ) : (
            <p className="text-sm text-muted-foreground">
              The spins are consistent with the odds: a p-value this high is what chance gives with a fair wheel.
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** The last 10 wheel versions with how many spins each had. */
export function VersionsSection({ data }: { data: AdminSpinner }) {
  return (
    <section aria-labelledby="versions-heading" className="flex flex-col gap-3">
      <h2 id="versions-heading" className="text-lg font-semibold">
        Versions
      </h2>
      <Table cards>
        <TableCaption visuallyHidden>Wheel versions, newest first (the last 10)</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Version</TableHead>
            <TableHead>Saved</TableHead>
            <TableHead>By</TableHead>
            <TableHead className="text-right">Spins</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.versions.map((v) => (
            <TableRow key={v.wheel_id}>
              <TableCell label="Version" className="tabular-nums">
                {v.wheel_id}{" "}
                {v.wheel_id === data.wheel.wheel_id ? (
                  <Badge variant="success" className="ml-1">
                    Live
                  </Badge>
                ) : null}
              </TableCell>
              <TableCell label="Saved" className="whitespace-nowrap">
                <time dateTime={v.created_at}>{formatDateTime(v.created_at)}</time>
              </TableCell>
              <TableCell label="By">{v.created_by_email ?? "The demo data"}</TableCell>
              <TableCell label="Spins" className="text-right tabular-nums">
                {formatCount(v.spins)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** The free route: the form to record a postal request and the last 20 recorded. */
export function PostalRequestsSection({ data }: { data: AdminSpinner }) {
  return (
    <section aria-labelledby="postal-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="postal-heading" className="text-lg font-semibold">
          Postal requests (the free route)
        </h2>
        <p className="text-sm text-muted-foreground">
          A letter asking for a spin gets the player 1 spin credit, with the same odds as a spin earned from tickets.
          They are e-mailed when it is recorded.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Record a postal request</CardTitle>
        </CardHeader>
        <CardContent>
          <PostalRequestForm />
        </CardContent>
      </Card>
      {data.recent_grants.length === 0 ? (
        <p className="text-muted-foreground">No postal requests recorded yet.</p>
      ) : (
        <Table cards>
          <TableCaption visuallyHidden>Postal requests, newest first (the last 20)</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Recorded</TableHead>
              <TableHead>Player</TableHead>
              <TableHead>Reference</TableHead>
              <TableHead>By</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.recent_grants.map((g) => (
              <TableRow key={g.id}>
                <TableCell label="Recorded" className="whitespace-nowrap">
                  <time dateTime={g.created_at}>{formatDateTime(g.created_at)}</time>
                </TableCell>
                <TableCell label="Player">
                  <Link href={`/admin/users/${g.user_id}`} className="underline underline-offset-4">
                    {g.email ?? "A deleted account"}
                  </Link>
                </TableCell>
                <TableCell label="Reference" className="break-words">
                  {g.reference}
                </TableCell>
                <TableCell label="By">{g.created_by_email ?? "A deleted admin"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
