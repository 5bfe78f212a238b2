// Preloaded (node --import) into a third-party HTTP MCP server under test:
// every listen that names only a port binds to 127.0.0.1 instead of all
// interfaces, and the port actually bound (PORT=0 picks a free one) is
// written to stderr as "llmrt-listening PORT" for the test to read.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const rest = args.slice(1).filter((a) => typeof a === "function");
    args = [port, "127.0.0.1", ...rest];
  }
  this.once("listening", () => {
    const a = this.address();
    if (a && typeof a === "object") process.stderr.write(`llmrt-listening ${a.address} ${a.port}\n`);
  });
  return listen.apply(this, args);
};
