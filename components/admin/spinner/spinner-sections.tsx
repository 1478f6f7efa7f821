import { Link } from "@/components/ui/link";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
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
        <DataTable
          cards
          caption="Live wheel odds"
          captionHidden
          rows={wheel.segments}
          rowKey={(s) => s.position}
          columns={[
            { header: "Segment", className: "tabular-nums", cell: (s) => s.position },
            {
              header: "Label",
              cell: (s) => <SegmentSwatch label={s.label} colour={s.colour} labelColour={s.label_colour} />,
            },
            { header: "Prize", numeric: true, cell: (s) => formatPrize(s.prize_credits) },
            { header: "Weight", numeric: true, cell: (s) => formatCount(s.weight) },
            { header: "Odds", numeric: true, cell: (s) => formatOdds(s.probability) },
          ]}
        />
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
      <DataTable
        cards
        caption="Observed spins against the odds, per segment of the live wheel"
        captionHidden
        rows={wheel.segments}
        rowKey={(s) => s.position}
        columns={[
          { header: "Segment", cell: (s) => `${s.position}. ${s.label}` },
          { header: "Expected probability", numeric: true, cell: (s) => formatOdds(s.probability) },
          { header: "Expected count", numeric: true, cell: (_, i) => formatExpectedCount(expected[i]) },
          { header: "Observed count", numeric: true, cell: (_, i) => formatCount(observed[i]) },
          {
            header: "Observed share",
            numeric: true,
            cell: (_, i) => (spins === 0 ? "None yet" : formatOdds(observed[i] / spins)),
          },
        ]}
      />
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
      <DataTable
        cards
        caption="Wheel versions, newest first (the last 10)"
        captionHidden
        rows={data.versions}
        rowKey={(v) => v.wheel_id}
        columns={[
          {
            header: "Version",
            className: "tabular-nums",
            cell: (v) => (
              <>
                {v.wheel_id}{" "}
                {v.wheel_id === data.wheel.wheel_id ? (
                  <Badge variant="success" className="ml-1">
                    Live
                  </Badge>
                ) : null}
              </>
            ),
          },
          {
            header: "Saved",
            className: "whitespace-nowrap",
            cell: (v) => <time dateTime={v.created_at}>{formatDateTime(v.created_at)}</time>,
          },
          { header: "By", cell: (v) => v.created_by_email ?? "The demo data" },
          { header: "Spins", numeric: true, cell: (v) => formatCount(v.spins) },
        ]}
      />
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
      <DataTable
        cards
        caption="Postal requests, newest first (the last 20)"
        captionHidden
        rows={data.recent_grants}
        rowKey={(g) => g.id}
        empty={<p className="text-muted-foreground">No postal requests recorded yet.</p>}
        columns={[
          {
            header: "Recorded",
            className: "whitespace-nowrap",
            cell: (g) => <time dateTime={g.created_at}>{formatDateTime(g.created_at)}</time>,
          },
          {
            header: "Player",
            cell: (g) => (
              <Link href={`/admin/users/${g.user_id}`} className="underline underline-offset-4">
                {g.email ?? "A deleted account"}
              </Link>
            ),
          },
          { header: "Reference", className: "break-words", cell: (g) => g.reference },
          { header: "By", cell: (g) => g.created_by_email ?? "A deleted admin" },
        ]}
      />
    </section>
  );
}
