import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Each file where its name says (decision 092), and nothing that reaches into
 * a framework's internals (decision 089), read from the sources themselves.
 */

const ROOT = path.resolve(__dirname, "../..");
const SOURCE = /\.(?:ts|tsx|mjs|js)$/;

/** Every source file under `folder` (relative to the project), generated code left out. */
function sourcesUnder(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      const relative = path.join(dir, name);
      if (name === "node_modules" || name === "generated") continue;
      if (statSync(path.join(ROOT, relative)).isDirectory()) walk(relative);
      else if (SOURCE.test(name)) found.push(relative);
    }
  };
  walk(folder);
  return found;
}

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The module specifiers a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = read(file);
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/g), ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)];
  return specifiers.map((match) => match[1]!);
}

/** Where a specifier of `file` points, relative to the project ("~/" is app/). */
function target(file: string, specifier: string): string {
  if (specifier.startsWith("~/")) return path.join("app", specifier.slice(2));
  if (specifier.startsWith(".")) return path.join(path.dirname(file), specifier);
  return specifier;
}

const production = [...sourcesUnder("app"), ...sourcesUnder("server"), "server.mjs"].filter((file) => !/\.test\.tsx?$/.test(file));

describe("the demo's stand-ins", () => {
  it("are reached from the shop's own code only by their starter and the payment page's route", () => {
    const reaching = production.filter((file) => importsOf(file).some((specifier) => target(file, specifier).startsWith("mocks/")));
    expect(reaching.sort()).toEqual(["app/process.server.ts", "app/routes/mock-stripe.pay.$sessionId.tsx"]);
  });

  it("are all in mocks/: nothing in app/ is named for them", () => {
    expect(sourcesUnder("app").filter((file) => /mock|stand-in|test-scenario/i.test(path.basename(file)))).toEqual([
      "app/routes/mock-stripe.pay.$sessionId.tsx",
    ]);
    expect(read("app/routes/mock-stripe.pay.$sessionId.tsx")).toMatch(/^(?:\/\/.*\n)*export \{[^}]+\} from "\.\.\/\.\.\/mocks\/payment-page";\n$/);
  });
});

describe("the server entry", () => {
  it("exports what Remix asks of it, and the process's own file", () => {
    const text = read("app/entry.server.tsx");
    const exported = [...text.matchAll(/^export\s+(?:default\s+function|const|function|\*\s+from)\s+("[^"]+"|\w+)/gm)].map((match) => match[1]);
    expect(exported.sort()).toEqual(['"~/process.server"', "handleDataRequest", "handleError", "handleRequest"].sort());
  });

  it("keeps no job registry and starts nothing", () => {
    const text = read("app/entry.server.tsx");
    expect(text).not.toMatch(/startJobs|startOutboxWorker|startMocks|routeConsoleToLogger|startErrorReports/);
    expect(read("app/services/background-work.server.ts")).toMatch(/export const JOBS: Job\[\]/);
  });
});

describe("the start-up", () => {
  it("lives beside the server: server.mjs and server/ import from scripts/ only the build steps prepare.mjs runs when the build is stale", () => {
    const fromScripts = production
      .filter((file) => !file.startsWith("app/"))
      .flatMap((file) => importsOf(file).map((specifier) => [file, target(file, specifier)] as const))
      .filter(([, to]) => to.startsWith("scripts/"));
    expect(fromScripts).toEqual([
      ["server/prepare.mjs", "scripts/build-shop.mjs"],
      ["server/prepare.mjs", "scripts/precompress.mjs"],
    ]);
  });
});

describe("nothing reaches into a framework's internals", () => {
  const everything = [...production, ...sourcesUnder("scripts"), ...sourcesUnder("mocks")];

  it("imports no package's dist/ path", () => {
    const offending = everything.filter((file) => importsOf(file).some((specifier) => !specifier.startsWith(".") && /\/dist\//.test(specifier)));
    expect(offending).toEqual([]);
  });

  it("neither reads Remix's serialised context nor patches a response's or a stream's methods", () => {
    const offending = everything.filter((file) => /__remixContext|\bres\.(?:write|end)\s*=(?!=)|\._transform\b|\bprototype\._/.test(read(file)));
    expect(offending).toEqual([]);
  });
});
