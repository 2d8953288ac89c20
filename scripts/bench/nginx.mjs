// The ceiling for a page (issue 21 item 6): its HTML compressed once (gzip -9) and served by nginx from
// Debian (`apt-get install nginx-light`) with gzip_static, one worker process, no access log: what a
// static file costs when nothing is computed or compressed per request.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";

const NGINX = "/usr/sbin/nginx";

export const nginxInstalled = () => existsSync(NGINX);

/**
 * Serves `html` at http://127.0.0.1:`port`/page.html as a pre-compressed file.
 * Resolves with its URL, its worker's pid (whose CPU time is the figure's) and stop().
 * @param {{ port: number, html: string }} options
 */
export async function servePrecompressed({ port, html }) {
  // Under /tmp: nginx's worker runs as an unprivileged user, which must be able to read the files.
  const root = mkdtempSync(path.join(tmpdir(), "chillpb-bench-nginx-"));
  execFileSync("chmod", ["755", root]);
  writeFileSync(path.join(root, "page.html"), html);
  writeFileSync(path.join(root, "page.html.gz"), gzipSync(html, { level: 9 }));
  const config = path.join(root, "nginx.conf");
  writeFileSync(
    config,
    `worker_processes 1;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  gzip_static on;
  types { text/html html; }
  client_body_temp_path ${root}/body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const master = spawn(NGINX, ["-c", config, "-p", root], { stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => master.once("exit", resolve));
  const url = `http://127.0.0.1:${port}/page.html`;
  for (let attempt = 0; ; attempt++) {
    if (master.exitCode !== null) throw new Error(`nginx exited with code ${master.exitCode}`);
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (attempt > 250) throw new Error("nginx did not serve within 5 s");
    await sleep(20);
  }
  const worker = Number(
    execFileSync("pgrep", ["-P", String(master.pid)])
      .toString()
      .trim()
      .split("\n")[0],
  );
  const served = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  if (served.headers.get("content-encoding") !== "gzip") throw new Error("nginx did not serve the pre-compressed copy");
  return {
    url,
    pid: worker,
    async stop() {
      master.kill("SIGQUIT");
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}
