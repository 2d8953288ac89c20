import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { summariseProfile } from "../../scripts/profile-summary.mjs";

/**
 * The order path's profile summary (scripts/profile-summary.mjs): self time by
 * where the code lives and by function, idle and the start-up left out.
 */

const folder = mkdtempSync(path.join(os.tmpdir(), "chillpb-profile-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9, columnNumber: 0, scriptId: "1" });

function profileFile() {
  const nodes = [
    { id: 1, callFrame: frame("(root)", "") },
    { id: 2, callFrame: frame("(idle)", "") },
    { id: 3, callFrame: frame("placeOrder", "file:///srv/chillpb/build/index.js") },
    { id: 4, callFrame: frame("request", "file:///srv/chillpb/node_modules/@prisma/client/runtime/client.js") },
    { id: 5, callFrame: frame("wasm-function[91]", "wasm://wasm/007708f6") },
    { id: 6, callFrame: frame("writeGeneric", "node:internal/stream_base_commons") },
    { id: 7, callFrame: frame("(garbage collector)", "") },
  ];
  // Each sample's time delta comes before it: 1 s of start-up (placeOrder), then the load.
  const samples = [3, 2, 4, 4, 5, 6, 7, 3];
  const timeDeltas = [1_000_000, 10_000, 30_000, 30_000, 20_000, 10_000, 5_000, 5_000];
  const file = path.join(folder, "test.cpuprofile");
  writeFileSync(file, JSON.stringify({ nodes, startTime: 0, endTime: 1_110_000, samples, timeDeltas }));
  return file;
}

describe("summariseProfile", () => {
  it("sums self time by where the code lives and by function, idle left out", () => {
    const text = summariseProfile(profileFile(), { top: 3 });
    expect(text).toContain("busy 1100 ms (idle left out)");
    expect(text).toMatch(/91\.4%\s+1005 ms {2}shop/);
    expect(text).toMatch(/5\.5%\s+60 ms {2}@prisma\/client\n/);
    expect(text).toMatch(/1\.8%\s+20 ms {2}@prisma\/client \(query compiler, WebAssembly\)/);
    expect(text).toMatch(/0\.9%\s+10 ms {2}node internals/);
    expect(text).toContain("top 3 functions by self time:");
    expect(text).toContain("placeOrder  index.js:10  [shop]");
  });

  it("leaves out the start-up when told how long it took", () => {
    const text = summariseProfile(profileFile(), { top: 10, skipMs: 1_000 });
    expect(text).toContain("busy 100 ms (idle left out; the first 1.0 s too)");
    expect(text).toMatch(/60\.0%\s+60 ms {2}@prisma\/client\n/);
    expect(text).toMatch(/5\.0%\s+5 ms {2}shop/);
  });
});
