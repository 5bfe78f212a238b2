#!/usr/bin/env bash
# bench/search.sh — search_files against ripgrep on the same tree.
#
# Generates a deterministic 20,000-file source-like tree (plus a .gitignore
# with ignored directories, hidden files and binaries) in a temporary
# directory, checks that search_files and ripgrep find the same number of
# matching lines, then times both, with hyperfine when installed and a
# date +%s%N loop otherwise. Target (issue #3): search_files within 2x of
# ripgrep's wall time.
#
#   bench/search.sh              the benchmark regex plus a few others
#   RUNS=50 bench/search.sh      more runs per command
#   REGEX='foo\(' bench/search.sh  one regex of your own
set -euo pipefail
cd "$(dirname "$0")/.."

command -v rg >/dev/null || { echo "bench/search.sh: ripgrep (rg) is required: apt-get install -y ripgrep" >&2; exit 1; }
runs=${RUNS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/searchbench" ./tools/internal/searchbench
mkdir "$tmp/tree"
"$tmp/searchbench" -gen "$tmp/tree"
echo "tree: $(find "$tmp/tree" -type f | wc -l) files, $(du -sh "$tmp/tree" | cut -f1); $(nproc) CPUs; $(rg --version | awk 'NR == 1')"

if [[ -n ${REGEX:-} ]]; then
	regexes=("$REGEX")
else
	# The benchmark regex (issue #3), a literal with no match, a
	# case-insensitive one, a regex with an inner literal, and one with no
	# literal at all, where Go's regexp engine rather than IO sets the pace.
	regexes=('func \w+Handler\(' 'ErrNotFoundHere' '(?i)sessionsavehandler\(' 'TODO\(\w+\): cache the' '[0-9]{4}')
fi

# ripgrep needs --no-require-git to honour .gitignore outside a git
# repository; search_files always does.
rg_cmd() { rg --no-require-git -n -- "$1" "$tmp/tree" || [[ $? -eq 1 ]]; } # 1: no match
sf_cmd() { "$tmp/searchbench" -dir "$tmp/tree" -content "$1"; }

# mean_ms CMD...: runs CMD $runs times (after 3 warm-ups) and prints the
# mean and the minimum wall time in milliseconds.
mean_ms() {
	local i start end total=0 min=
	for i in 1 2 3; do "$@" >/dev/null; done
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s%N)
		"$@" >/dev/null
		end=$(date +%s%N)
		local t=$(((end - start) / 1000))
		total=$((total + t))
		if [[ -z $min || $t -lt $min ]]; then min=$t; fi
	done
	printf 'mean %d.%01d ms, min %d.%01d ms\n' $((total / runs / 1000)) $((total / runs % 1000 / 100)) $((min / 1000)) $((min % 1000 / 100))
}

for re in "${regexes[@]}"; do
	want=$(rg_cmd "$re" | wc -l)
	got=$("$tmp/searchbench" -dir "$tmp/tree" -content "$re" -count)
	echo
	echo "== /$re/: ripgrep $want matching lines, search_files $got"
	if [[ $want -ne $got ]]; then
		echo "bench/search.sh: search_files and ripgrep disagree on /$re/" >&2
		exit 1
	fi
	if command -v hyperfine >/dev/null; then
		hyperfine -N -i --style basic -w 3 -r "$runs" \
			-n ripgrep "rg --no-require-git -n -- '$re' $tmp/tree" \
			-n search_files "$tmp/searchbench -dir $tmp/tree -content '$re'"
	else
		echo "ripgrep:      $(mean_ms rg_cmd "$re")"
		echo "search_files: $(mean_ms sf_cmd "$re")"
	fi
done
