// Demo or production, decided once before anything starts (decision 037).
// The demo (the stand-ins for Stripe and the geocoder, the demo accounts and
// their printed passwords, the sample orders, a fixed session secret) runs only
// when nothing real is configured; a real shop says so with NODE_ENV=production.

/** Settings that only a real shop has: given without NODE_ENV=production, they mean a production shop misconfigured as the demo. */
export const PRODUCTION_SECRETS = /** @type {const} */ (["SESSION_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]);

/**
 * @typedef {{ demo: boolean, refusal: null } | { demo: false, refusal: string }} StartMode
 */

/**
 * What the process is, from the environment as it was given: production
 * (NODE_ENV=production), development (`npm run dev`), or the demo (NODE_ENV
 * unset: `npm start` on a fresh clone). A production secret outside
 * production, or DEMO=true in production, is refused with what to set.
 *
 * @param {Record<string, string | undefined>} given
 * @returns {StartMode}
 */
export function startMode(given) {
  const production = given.NODE_ENV === "production";
  if (production) {
    if (given.DEMO === "true") {
      return {
        demo: false,
        refusal:
          "DEMO=true is refused with NODE_ENV=production: the demo runs with public passwords and no real payments. " +
          "Unset DEMO for the real shop, or unset NODE_ENV (and the production settings) for the demo.",
      };
    }
    return { demo: false, refusal: null };
  }
  const secrets = PRODUCTION_SECRETS.filter((name) => (given[name] ?? "") !== "");
  if (secrets.length > 0) {
    return {
      demo: false,
      refusal:
        `${secrets.join(", ")} ${secrets.length === 1 ? "is" : "are"} set but NODE_ENV is ${given.NODE_ENV ? `"${given.NODE_ENV}"` : "not set"}: ` +
        "this looks like a real shop, which must not start as the demo (stand-ins, demo accounts with public passwords). " +
        "Set NODE_ENV=production to run the real shop, or unset them to run the demo.",
    };
  }
  return { demo: given.NODE_ENV === undefined || given.NODE_ENV === "", refusal: null };
}
