import type { Metadata, Viewport } from "next";
import { Document, documentMetadata, documentViewport } from "@/components/layout/document";

export const metadata: Metadata = documentMetadata;
export const viewport: Viewport = documentViewport;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return <Document>{children}</Document>;
}
