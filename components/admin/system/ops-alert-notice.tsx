import { Link } from "@/components/ui/link";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { openAlerts } from "@/lib/data/operations";
import { log } from "@/lib/observability/log";

/**
 * The console's notice of open operations alerts, on every admin page for super admins: the same
 * incidents they are e-mailed about, until one of them acknowledges each on /admin/system. A failure to read
 * them is logged and shows nothing: the page itself must still work.
 */
export async function OpsAlertNotice() {
  const alerts = await openAlerts().catch((e: unknown) => {
    log("error", "open_alerts_failed", { error: e });
    return [];
  });
  if (alerts.length === 0) return null;
  const [latest] = alerts;
  return (
    <Alert variant="destructive" announce={false} className="mb-6">
      <AlertTitle>
        {alerts.length === 1
          ? "1 operations alert needs attention"
          : `${alerts.length} operations alerts need attention`}
      </AlertTitle>
      <p className="mt-1">
        Latest: {latest.subject}.{" "}
        <Link href="/admin/system" className="font-semibold underline underline-offset-4">
          Open the System page
        </Link>
      </p>
    </Alert>
  );
}
