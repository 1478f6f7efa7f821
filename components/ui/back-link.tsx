import { ArrowLeft } from "lucide-react";
import { Link } from "@/components/ui/link";

/** The "← All …" link at the top of a detail page. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft aria-hidden className="size-4" />
      {children}
    </Link>
  );
}
