// Package session stores conversations as append-only records, so a run
// can be listed, shown, resumed after a pause (exit 3, or by token with
// the engine's Runtime.Resume) and continued after a crash.
//
// A Backend is where sessions are kept: Store, JSONL files on one machine
// (the command line's), or engine/session/sqlstore, a SQL database that
// several machines share; package sessiontest checks that a backend keeps
// sessions as Store does. Checkpoints keeps the engine's paused runs in
// any Backend, with Lock keeping two processes from resuming one pause.
//
// A Store is a directory holding one file per session, <id>.jsonl. Each
// line is one JSON object with a "type":
//
//	{"type":"meta","time":"…","meta":{"id":"20261122-153012-a1b2c3","created":"…","provider":"openai","model":"gpt-5","workdir":"/src/app","title":"fix the failing test","version":"0.3.0"}}
//	{"type":"message","time":"…","message":{"role":"user","content":[{"type":"text","text":"fix the failing test"}]}}
//	{"type":"message","time":"…","message":{"role":"assistant","tool_calls":[{"id":"call_1","name":"read_file","arguments":"{\"path\":\"a_test.go\"}"}]}}
//	{"type":"message","time":"…","message":{"role":"tool","content":[{"type":"text","text":"…"}],"tool_call_id":"call_1","tool_name":"read_file"}}
//	{"type":"end","time":"…","end":{"status":"completed","run_id":"run_…","output":"…","usage":{…},"iterations":3}}
//
// The meta line comes first. A message line holds one conversation message:
// the host writes its own messages (system prompt, user prompt, answers to
// pending calls) with Writer.WriteMessage, and Writer.WriteEvent records
// the messages the engine appends, which its events carry. An end line
// records each terminal event without repeating the messages. A Store may
// redact every line (Store.Redact) so no known secret reaches the disk;
// the meta line records the options that shaped the runs (Meta.Options)
// so a resumed run behaves like the one it continues.
//
// Every line is written with one write call and synced before the next, so
// a crash or kill loses at most the line being written. Load skips a torn
// last line with a warning, refuses a corrupt line anywhere else (naming
// the file and line), and normalises the conversation so it replays on
// every provider: tool results follow their assistant message in call
// order, and calls a dead process never answered get an "interrupted"
// error result, except the calls a paused run left for the host
// (Session.Pending).
//
// Sessions hold no secrets: meta records no keys or headers, and a base URL
// is stored without user info or query.
package session
