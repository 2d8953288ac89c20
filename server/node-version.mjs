// The Node.js versions the shop runs on (decision 080): imported first by
// server.mjs and server/prepare.mjs (`npm start`, `npm run dev`), so that an
// older Node stops with one line instead of starting and failing later, or
// running on a release past its end of life with no word.

/** The major versions CI tests and the README promises: the Active and Maintenance LTS lines. */
export const SUPPORTED_NODE_MAJORS = [22, 24, 26];

/**
 * The line that refuses `version` (process.version's form, "v20.20.2"), or
 * null when the shop runs on it: 22 or newer. A newer major than those
 * tested is let through: it is most likely fine, and the README says which
 * ones are tested.
 * @param {string} version
 * @returns {string | null}
 */
export function nodeVersionRefusal(version) {
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  if (major >= Math.min(...SUPPORTED_NODE_MAJORS)) return null;
  return `Chill PB needs Node.js ${SUPPORTED_NODE_MAJORS.join(", ").replace(/, (\d+)$/, " or $1")}; this is Node.js ${version}. Install one of them (https://nodejs.org, or nvm install 26) and run it again.`;
}

const refusal = nodeVersionRefusal(process.version);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
