// The year at render time. Static pages are rebuilt at least yearly by deploys; pages rendered per
// request are always current.
export function CurrentYear() {
  return <>{new Date().getUTCFullYear()}</>;
}
