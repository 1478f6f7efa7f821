// Every navigation list in one place (spec §2 "Navigation"), in the spec's order.
export type NavLink = { label: string; href: string };

export const mainNav: NavLink[] = [
  { label: "How it works", href: "/docs" },
  { label: "Competitions", href: "/competitions" },
  { label: "LabSpinner", href: "/labspinner" },
  { label: "Winners", href: "/winners" },
];

export const signedOutNav: NavLink[] = [
  { label: "Sign in", href: "/login" },
  { label: "Sign up", href: "/signup" },
];

/** Avatar menu entries; `pendingOnly` entries show only to unapproved users, `adminOnly` only to admins. */
export const accountMenu: (NavLink & { pendingOnly?: true; adminOnly?: true })[] = [
  { label: "Pending approval", href: "/pending-approval", pendingOnly: true },
  { label: "Dashboard", href: "/account" },
  { label: "My Entries", href: "/account/entries" },
  { label: "Credit Balance", href: "/account/credits" },
  { label: "Profile Settings", href: "/account/profile" },
  { label: "Admin Dashboard", href: "/admin", adminOnly: true },
];

export const signOutLink: NavLink = { label: "Sign out", href: "/logout" };

export const mobileAccountNav: NavLink[] = [
  { label: "Dashboard", href: "/account" },
  { label: "My Entries", href: "/account/entries" },
  { label: "Credits", href: "/account/credits" },
];

export const docsTopNav: NavLink[] = [
  { label: "Docs", href: "/docs/getting-started" },
  { label: "Pricing", href: "/pricing" },
  { label: "Blog", href: "/blog" },
];

export const footerNav: { title: string; links: NavLink[] }[] = [
  {
    title: "Learn",
    links: [
      { label: "How it works", href: "/docs" },
      { label: "Getting started", href: "/docs/getting-started" },
    ],
  },
  {
    title: "Legal",
    links: [
      { label: "Privacy policy", href: "/docs/legal/privacy-policy" },
      { label: "Terms and conditions", href: "/docs/legal/terms-and-conditions" },
    ],
  },
  {
    title: "Account",
    links: [{ label: "My account", href: "/account" }],
  },
];

export const dashboardNav: Record<"account" | "admin", NavLink[]> = {
  account: [
    { label: "Dashboard", href: "/account" },
    { label: "My Entries", href: "/account/entries" },
    { label: "My Prizes", href: "/account/prizes" },
    { label: "Credit Balance", href: "/account/credits" },
    { label: "Notifications", href: "/account/notifications" },
    { label: "Profile Settings", href: "/account/profile" },
    { label: "Responsible play", href: "/account/responsible-play" },
    { label: "Complaints", href: "/account/complaints" },
  ],
  // Every admin section (spec §2 plus player protection and complaints); the breadcrumbs
  // are built from this list too, so a section nested under another (history under competitions)
  // shows both.
  admin: [
    { label: "Dashboard", href: "/admin" },
    { label: "Users", href: "/admin/users" },
    { label: "Approvals", href: "/admin/approvals" },
    { label: "Competitions", href: "/admin/competitions" },
    { label: "Competition history", href: "/admin/competitions/history" },
    { label: "Winners", href: "/admin/competitions/winners" },
    { label: "Activity", href: "/admin/activity" },
    { label: "Mail", href: "/admin/mail" },
    { label: "Settings", href: "/admin/settings" },
    { label: "Player protection", href: "/admin/protection" },
    { label: "Complaints", href: "/admin/complaints" },
    { label: "LabSpinner", href: "/admin/labspinner" },
    { label: "System", href: "/admin/system" },
  ],
};
