import { cookies } from "next/headers";
import { dashboardNav } from "@/config/nav";
import { SiteFooter } from "./site-footer";
import { SiteHeader, SkipLink } from "./site-header";
import { DashboardSidebar } from "./dashboard-sidebar";
import { SIDEBAR_COOKIE, sidebarCollapsed } from "@/lib/layout/sidebar-cookie";

// Dashboard layout frame for /account/** and /admin/**; `area` picks the sidebar links.
export async function DashboardShell({ area, children }: { area: "account" | "admin"; children: React.ReactNode }) {
  const collapsed = sidebarCollapsed((await cookies()).get(SIDEBAR_COOKIE)?.value);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader wide />
      <div className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col md:flex-row">
        <DashboardSidebar
          title={area === "admin" ? "Admin" : "My account"}
          links={dashboardNav[area]}
          initialCollapsed={collapsed}
        />
        <main id="main" className="min-w-0 flex-1 px-4 py-8 sm:px-6 lg:px-10">
          {children}
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
