export default function BarePage() {
  return (
    <main>
      <h1>Bare Next.js page</h1>
      <p>
        One route, server-rendered, with no libraries, no stylesheet and no client component: the reference every
        LabCash public page is measured against.
      </p>
    </main>
  );
}
