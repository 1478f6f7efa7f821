import { AccessDenied } from "@/components/auth/access-denied";

// Rendered with status 403 when a layout or action calls forbidden().
export default function Forbidden() {
  return (
    <main id="main" className="px-4">
      <AccessDenied />
    </main>
  );
}
