import { Link } from "@/components/ui/link";
import { siteConfig } from "@/config/site";
import { Badge } from "@/components/ui/badge";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { Logo } from "./logo";
import { SkipLink } from "./site-header";
import { CurrentYear } from "./current-year";

// Auth layout frame for /login, /signup and the auth/* screens: a quiet header, the form centred.
export function AuthShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <SkipLink />
      <header className="mx-auto flex h-16 w-full max-w-5xl items-center justify-between px-4 sm:px-6">
        <div className="flex items-center gap-2">
          <Logo />
          <Badge>Beta</Badge>
        </div>
        <ThemeToggle />
      </header>
      <main id="main" className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10">
        {children}
      </main>
      <footer className="mx-auto w-full max-w-5xl px-4 py-6 text-center text-xs text-muted-foreground sm:px-6">
        <nav aria-label="Legal" className="mb-2 flex justify-center gap-4">
          <Link href="/docs/legal/privacy-policy" className="hover:underline">
            Privacy policy
          </Link>
          <Link href="/docs/legal/terms-and-conditions" className="hover:underline">
            Terms and conditions
          </Link>
        </nav>
        <p>
          © <CurrentYear /> {siteConfig.name}. {siteConfig.operator.notice}
        </p>
      </footer>
    </div>
  );
}
