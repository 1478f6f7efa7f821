import { siteConfig } from "@/config/site";
import { formatGBP } from "@/lib/format";

/** What an invite link's page and its preview card say, from what SQL tells anyone (get_referral_invitation). */
export function invitationWords({ first_name, credit }: { first_name: string | null; credit: number }) {
  const who = first_name ?? "A friend";
  const whose = first_name ? `${first_name}’s` : "your friend’s";
  const each = formatGBP(credit);
  return {
    title: `${who} invited you to ${siteConfig.name}`,
    offer: `Join with ${whose} invite and you each get ${each} credit, once our team has approved your account and you make your first paid entry.`,
    preview: `Join ${siteConfig.name} with ${whose} invite and you each get ${each} credit after your first paid entry. See the prizes you can win now.`,
  };
}

/** What the share sheet sends with a player's invite link. */
export function shareWords(credit: number) {
  return `Join me on ${siteConfig.name}: sign up with my link and we each get ${formatGBP(credit)} credit after your first paid entry.`;
}
