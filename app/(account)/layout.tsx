import { DashboardShell } from "@/components/layout/dashboard-shell";
import { requireUser } from "@/lib/auth/session";
import { HelpAssistant } from "@/components/assistant/help-assistant";

// Guard twice: the proxy already sent signed-out visitors to /login; check again here.
export default async function AccountLayout({ children }: { children: React.ReactNode }) {
  await requireUser("/account");
  return (
    <DashboardShell area="account">
      {children}
      <HelpAssistant />
    </DashboardShell>
  );
}
