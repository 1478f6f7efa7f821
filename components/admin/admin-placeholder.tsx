import { Construction } from "lucide-react";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { AdminBreadcrumbs } from "./admin-breadcrumbs";

/**
 * An admin section that is listed in the sidebar but not built yet: it says so plainly, says what
 * it will do, and what to use meanwhile. Guarded like every admin page (the layout and the proxy).
 */
export function AdminPlaceholder({
  path,
  title,
  arrives = "This screen arrives with the admin console work (issue 11) and is not built yet.",
  children,
}: {
  path: string;
  title: string;
  arrives?: string;
  children: React.ReactNode;
}) {
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path={path} />
        <PageHeader title={title} />
      </div>
      <Card className="flex gap-4 p-5">
        <Construction aria-hidden className="mt-0.5 size-6 shrink-0 text-primary-text" />
        <div className="flex flex-col gap-3">
          <p className="font-semibold">{arrives}</p>
          <div className="flex flex-col gap-2 text-muted-foreground">{children}</div>
        </div>
      </Card>
    </section>
  );
}
