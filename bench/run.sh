#!/usr/bin/env bash
# bench/run.sh — llmrt's speed and size, measured the way a user meets them.
#
# Builds llmrt as released (-trimpath, -s -w) and times it against a fake
# model server on loopback (cmd/internal/benchharness): a cold one-shot run
# beside curl making the same request, --help, `llmrt acp` start to its
# answer to initialize (with its idle RSS), a 100-iteration tool loop, and a
# 100,000-token streamed answer on each protocol (the Responses API, Chat
# Completions, Anthropic, Gemini, Ollama) beside curl fetching the same
# stream. Each row gives wall time, CPU time (user plus system) and peak
# memory. Then it runs the Go benchmarks of the hot paths (engine loop,
# stream parsing, search, TUI, run_code) and prints the binary sizes.
#
#   bench/run.sh                 everything, 15 runs per row
#   RUNS=30 bench/run.sh         more runs
#   ONLY=oneshot,help bench/run.sh   some rows of the table only (oneshot,help,chat,acp,loop,stream)
#   GOBENCH=0 bench/run.sh       skip the Go benchmarks
#   PEERS=1 bench/run.sh         also time Codex and Claude Code on the same work,
#                                installed with npm into a temporary prefix (codex and
#                                claude found on PATH are timed without PEERS)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v curl >/dev/null || { echo "bench/run.sh: curl is required: apt-get install -y curl" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/llmrt" .  # as goreleaser builds it
go build -o "$tmp/llmrt-debug" .
go build -o "$tmp/benchharness" ./cmd/internal/benchharness

peers=()
if [[ ${PEERS:-0} != 0 ]]; then
	if npm install --prefix "$tmp/peers" --no-audit --no-fund --loglevel=error @openai/codex @anthropic-ai/claude-code >&2; then
		peers+=(-codex "$tmp/peers/node_modules/.bin/codex" -claude "$tmp/peers/node_modules/.bin/claude")
	else
		echo "bench/run.sh: npm could not install codex and claude-code; timing llmrt alone" >&2
	fi
else
	if command -v codex >/dev/null; then peers+=(-codex "$(command -v codex)"); fi
	if command -v claude >/dev/null; then peers+=(-claude "$(command -v claude)"); fi
fi

"$tmp/benchharness" -llmrt "$tmp/llmrt" -runs "${RUNS:-15}" -only "${ONLY:-}" "${peers[@]}"

echo
printf '%-44s %10s\n' "binary size" "MB"
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
printf '%-44s %10s\n' "llmrt as released (no cgo, -s -w)" "$(mb "$tmp/llmrt")"
printf '%-44s %10s\n' "llmrt with symbols (go build)" "$(mb "$tmp/llmrt-debug")"

if [[ ${GOBENCH:-1} != 0 ]]; then
	echo
	echo "Go benchmarks (go test -bench, -count 5; compare runs with benchstat):"
	pkgs=$(go list ./... | grep -E '/(engine|providers/(openai|anthropic|google|ollama)|tools|tools/runcode|ui)$' || true)
	# shellcheck disable=SC2086
	go test -run '^$' -bench . -benchmem -count 5 $pkgs | grep -E '^(Benchmark|ok|pkg:)'
fi
