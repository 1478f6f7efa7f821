// The reference for `npm run bench:pages`: the least a Next.js 16 page can be (one route, no
// libraries, no CSS, no client JavaScript of its own), built and measured in the same run as the
// site so its score and LCP are what this machine and this Next version give for free.
//
// Plain JSX on purpose: the repo's tsconfig (allowJs off) never type-checks it, and Next, finding
// no TypeScript here, writes no tsconfig or next-env.d.ts. The bench copies this folder under .data/
// and builds it there, so the build output stays out of the repo's lint, format and type checks.
export const metadata = {
  title: "Bare Next.js page",
  description: "The reference page LabCash's Lighthouse bench compares every public page against.",
};

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
