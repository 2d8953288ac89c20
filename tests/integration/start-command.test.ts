import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startCommand } from "../../scripts/bench/server.mjs";

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
