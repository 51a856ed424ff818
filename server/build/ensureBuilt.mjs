/**
 * `node server/build/ensureBuilt.mjs`: the web app and the server built when missing or stale
 * (builds.mjs); run before `npm start`, `npm test` and the benches.
 */
import { ensureServerBuild, ensureWebBuild } from './builds.mjs';

ensureWebBuild();
await ensureServerBuild();
