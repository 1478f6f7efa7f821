// Default layout frame: header, main, footer. (Visual design: site-shell issue.)
export function SiteShell({ children }: { children: React.ReactNode }) {
  return <main id="main">{children}</main>;
}
