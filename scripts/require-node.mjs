// The project runs on Node 22 LTS (package.json engines). npm scripts get it from the `node`
// package in node_modules/.bin, which npm puts first on PATH; a script started with an older
// system Node (`node scripts/…` outside npm) stops here with the fix, not later with a riddle.
export function requireNode22(command) {
  if (Number(process.versions.node.split(".")[0]) >= 22) return;
  console.error(
    `[labcash] Node 22 or later is needed (this is ${process.version}). Run \`npm install\`, then \`${command}\`.`,
  );
  process.exit(1);
}
