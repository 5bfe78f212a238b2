// Drives `llmrt acp` with the official ACP TypeScript SDK (pinned in
// .ci/npm), as an editor would, against the fake model the Go test
// (cmd/e2e_acp_npm_test.go) scripted:
//   1. a prompt whose write_file call asks permission (allowed once) and
//      lands through the client's fs/write_text_file;
//   2. a prompt cancelled while the model streams;
//   3. in a new process, the session listed, loaded (its history replayed)
//      and continued.
// Usage: node client.mjs LLMRT WORKDIR BASE_URL; the SDK is found in
// $LLMRT_CI_NPM. It prints one JSON object of what it saw; any broken
// expectation throws (exit 1) with what was seen instead.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [llmrt, work, baseURL] = process.argv.slice(2);
const require = createRequire(path.join(process.env.LLMRT_CI_NPM, "package.json"));
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);

function check(ok, what, seen) {
  if (!ok) throw new Error(`${what}; saw ${JSON.stringify(seen)}`);
}

// agent starts llmrt acp and connects a client app that records what the
// agent sends and answers its requests.
function agent(permissionOption) {
  const child = spawn(llmrt, ["acp", "--provider", "openai", "--base-url", baseURL, "--model", "m", "--permission", "ask"],
    { cwd: work, stdio: ["pipe", "pipe", "inherit"] });
  const seen = { updates: [], permissions: [], writes: [], onUpdate: null };
  const app = acp.client({ name: "llmrt-e2e" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      seen.updates.push(params.update);
      if (seen.onUpdate) seen.onUpdate(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      seen.permissions.push(params);
      return { outcome: { outcome: "selected", optionId: permissionOption } };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      seen.writes.push({ path: params.path, content: params.content });
      return {};
    });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  return { child, seen, app, stream };
}

const init = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
};
const text = (t) => [{ type: "text", text: t }];
const out = {};

// First process: a tool call with a permission request and an fs write,
// then a cancel while the model streams.
{
  const a = agent("allow_once");
  await a.app.connectWith(a.stream, async (ctx) => {
    const ir = await ctx.request(acp.methods.agent.initialize, init);
    check(ir.protocolVersion === 1 && ir.agentCapabilities.loadSession === true, "initialize", ir);
    const ns = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
    out.sessionId = ns.sessionId;

    const r1 = await ctx.request(acp.methods.agent.session.prompt, { sessionId: ns.sessionId, prompt: text("Write hello.txt") });
    check(r1.stopReason === "end_turn", "first prompt ends its turn", r1);
    const call = a.seen.updates.find((u) => u.sessionUpdate === "tool_call");
    check(call && call.kind === "edit" && call.title === "Write hello.txt", "the write is announced", a.seen.updates);
    check(a.seen.permissions.length === 1 && a.seen.permissions[0].toolCall.toolCallId === call.toolCallId, "one permission request for the call", a.seen.permissions);
    out.options = a.seen.permissions[0].options.map((o) => o.kind);
    out.writes = a.seen.writes;
    out.answer = a.seen.updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");

    // The model streams slowly; the first chunk shows it is under way.
    a.seen.updates = [];
    let streaming;
    const started = new Promise((resolve) => { streaming = resolve; });
    a.seen.onUpdate = (u) => { if (u.sessionUpdate === "agent_message_chunk") streaming(); };
    const pending = ctx.request(acp.methods.agent.session.prompt, { sessionId: ns.sessionId, prompt: text("Tell me a long story") });
    await started;
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId: ns.sessionId });
    const r2 = await pending;
    check(r2.stopReason === "cancelled", "the cancelled prompt stops as cancelled", r2);
    out.cancelled = r2.stopReason;
  });
  a.child.stdin.end();
  await new Promise((resolve) => a.child.on("exit", resolve));
}

// Second process: the earlier session listed, loaded and continued.
{
  const b = agent("allow_once");
  await b.app.connectWith(b.stream, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, init);
    const list = await ctx.request(acp.methods.agent.session.list, { cwd: work });
    check(list.sessions.some((s) => s.sessionId === out.sessionId), "session/list holds the session", list);
    await ctx.request(acp.methods.agent.session.load, { sessionId: out.sessionId, cwd: work, mcpServers: [] });
    out.replayedUser = b.seen.updates.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => u.content.text);
    out.replayedTools = b.seen.updates.filter((u) => u.sessionUpdate === "tool_call").map((u) => u.title);
    const r3 = await ctx.request(acp.methods.agent.session.prompt, { sessionId: out.sessionId, prompt: text("And now?") });
    check(r3.stopReason === "end_turn", "the loaded session goes on", r3);
  });
  b.child.stdin.end();
  await new Promise((resolve) => b.child.on("exit", resolve));
}

process.stdout.write(JSON.stringify(out) + "\n");
