// Shared by lighthouse.mjs and webkit-smoke.mjs: waits until a spawned `serve.mjs DIR 0` (a free
// port) prints the address it listens on, and resolves with its origin.
export function serverOrigin(child, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the static server did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the static server exited (${code})${child.stderrText ? `: ${child.stderrText}` : ""}`));
    });
  });
}
