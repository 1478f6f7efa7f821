import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "LabCash – Win Big, Spend Small", template: "%s · LabCash – Win Big, Spend Small" },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en-GB">
      <body>{children}</body>
    </html>
  );
}
