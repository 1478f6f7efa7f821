import { Link } from "@/components/ui/link";
import { siteConfig } from "@/config/site";

export function Logo() {
  return (
    <Link
      href="/"
      className="flex items-center gap-2 rounded-md font-bold tracking-tight"
      aria-label={`${siteConfig.name} home`}
    >
      <svg aria-hidden viewBox="0 0 64 64" className="size-8 shrink-0">
        <rect width="64" height="64" rx="14" className="fill-primary" />
        <path d="M20 16h8v24h16v8H20z" className="fill-primary-foreground" />
        <circle cx="44" cy="22" r="6" className="fill-primary-foreground opacity-70" />
      </svg>
      {/* The mark alone on the narrowest phones (under 360 px), where the header's buttons need the room. */}
      <span className="text-lg max-[359px]:hidden">{siteConfig.name}</span>
    </Link>
  );
}
