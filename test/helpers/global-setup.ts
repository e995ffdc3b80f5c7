// Runs once before the whole suite. Cross-boundary suites that need the production build
// call ensureBuild() themselves; nothing global is needed yet.
export default function setup() {}
