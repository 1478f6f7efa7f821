// Dashboard layout frame for /account/** and /admin/**; `area` picks the sidebar links.
export function DashboardShell({ children }: { area: "account" | "admin"; children: React.ReactNode }) {
  return <main id="main">{children}</main>;
}
