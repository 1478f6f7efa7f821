import {
  BookOpen,
  HeartHandshake,
  Mail,
  Percent,
  ShieldCheck,
  Sparkles,
  Trophy,
  UserPlus,
  Wallet,
  type LucideIcon,
} from "lucide-react";

// Icons named in content/*.yml. Only these are bundled.
const icons: Record<string, LucideIcon> = {
  "book-open": BookOpen,
  "heart-handshake": HeartHandshake,
  mail: Mail,
  percent: Percent,
  "shield-check": ShieldCheck,
  sparkles: Sparkles,
  trophy: Trophy,
  "user-plus": UserPlus,
  wallet: Wallet,
};

export function ContentIcon({ name, className }: { name?: string; className?: string }) {
  const Icon = (name && icons[name]) || Sparkles;
  return <Icon aria-hidden className={className} />;
}
