/**
 * The signed-in operator's app, fetched on demand: by the shell once it knows
 * the browser is signed in, and by the sign-in page as soon as someone
 * starts filling it in, so that it is there when they are let in.
 */
export const loadOperatorApp = () => import("./operator-app");
