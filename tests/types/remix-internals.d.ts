// Two of Remix's own functions that app/utils/rendered-routes.server.test.ts
// checks the shop's route pruning against; their packages export them only
// from dist files, without types. The parts used here.
declare module "@remix-run/dev/dist/config/flat-routes.js" {
  type ConfigRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; file: string };
  export function flatRoutes(appDirectory: string, ignoredFilePatterns?: string[]): Record<string, ConfigRoute>;
}

declare module "@remix-run/react/dist/fog-of-war.js" {
  import type { AgnosticDataRouteMatch, AgnosticRouteObject } from "@remix-run/router";
  type Router = { state: { matches: AgnosticDataRouteMatch[]; location: { pathname: string } }; routes: AgnosticRouteObject[]; basename: string };
  export function getPartialManifest<M extends { routes: Record<string, unknown> }>(manifest: M, router: Router): M;
}
