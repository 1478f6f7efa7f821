// Auth layout frame for /login, /signup and the auth/* screens.
export function AuthShell({ children }: { children: React.ReactNode }) {
  return <main id="main">{children}</main>;
}
