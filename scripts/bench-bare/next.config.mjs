// Next looks for its config upward from the app's directory: this empty one stops it at the repo's
// next.config.ts, so the reference page builds with Next's defaults and none of the site's settings.
const config = {};
export default config;
