import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startCommand } from "../../scripts/bench/server.mjs";
import { nodeVersionRefusal } from "../../server/node-version.mjs";

/**
 * `npm start` and the systemd unit run the server alike (decision 077: V8's old generation grows by half
 * before its next collection). Node refuses to start on a V8 flag it does not know ("bad option", exit 9),
 * so a Node upgrade that dropped one would stop every instance: the Node that runs the tests must take them.
 */
describe("the start command", () => {
  const npmStart = startCommand();
  const unit = readFileSync("docs/systemd/chillpb@.service", "utf8");

  it("gives the server the same node flags and variables in npm start and in the systemd unit", () => {
    const execStart = /^ExecStart=\/usr\/bin\/node ((?:--[\w-]+(?:=\S+)? )*)server\.mjs$/m.exec(unit);
    expect(execStart, "the unit's ExecStart runs /usr/bin/node … server.mjs").not.toBeNull();
    const unitFlags = (execStart?.[1] ?? "").split(" ").filter(Boolean);
    expect(unitFlags).toEqual(npmStart.flags);
    expect(npmStart.flags).toContain("--heap-growing-percent=50");
    for (const [name, value] of Object.entries(npmStart.variables)) {
      expect(unit).toContain(`Environment=${name}=${value}`);
    }
  });

  it("has flags this Node takes", () => {
    const run = spawnSync(process.execPath, [...npmStart.flags, "-e", "process.stdout.write('started')"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("started");
  });

  it("would be refused by Node with a flag it does not know, which is what the test above guards against", () => {
    const run = spawnSync(process.execPath, ["--heap-growing-percentage=50", "-e", "0"], { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/bad option/);
  });
});

/**
 * On a Node.js older than 22 (20 reached its end of life in April 2026), `npm start` and `npm run dev` stop with
 * one line naming the versions the shop runs on, before anything else loads (decision 080).
 */
describe("the Node.js it needs", () => {
  it("refuses Node 20 and older with the versions it runs on, and takes 22 and newer", () => {
    expect(nodeVersionRefusal("v20.20.2")).toBe(
      "Chill PB needs Node.js 22, 24 or 26; this is Node.js v20.20.2. Install one of them (https://nodejs.org, or nvm install 26) and run it again.",
    );
    expect(nodeVersionRefusal("v18.19.0")).toContain("needs Node.js 22, 24 or 26");
    for (const version of ["v22.0.0", "v24.11.1", "v26.12.1", "v27.0.0"]) expect(nodeVersionRefusal(version)).toBeNull();
  });

  // The machine's own Node (Debian's /usr/bin/node) is 20 here and in CI: the real start command meets it.
  const old = spawnSync("/usr/bin/node", ["-p", "process.versions.node"], { encoding: "utf8" });
  const oldMajor = old.status === 0 ? Number(old.stdout.split(".")[0]) : null;
  it.runIf(oldMajor !== null && oldMajor < 22)("npm start's command and npm run dev's first step on that Node stop with that one line, exit 1", () => {
    for (const args of [[...startCommand().flags, "server.mjs"], ["server/prepare.mjs"]]) {
      const run = spawnSync("/usr/bin/node", args, { encoding: "utf8", env: { ...process.env, SKIP_BUILD: "true" } });
      expect(run.status, args.join(" ")).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toEqual([nodeVersionRefusal(`v${old.stdout.trim()}`)]);
    }
  });
});
