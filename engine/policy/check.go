package policy

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
)

// Tool is a tool as Check sees it: its name and the JSON Schema of its
// arguments (a json.RawMessage, or a value that marshals to one).
type Tool struct {
	Name   string
	Schema any
}

// Problem is a rule that cannot match any tool of a surface, and why.
type Problem struct {
	Rule    Rule
	Message string
}

// Check reports rules that cannot match any tool of a surface: a tool
// name or pattern no tool has, or a parameter none of the named tools
// takes. Such a rule is almost always a typo that would otherwise pass
// silently.
func Check(rules []Rule, surface []Tool) []Problem {
	var out []Problem
	for _, r := range rules {
		var matched []Tool
		for _, t := range surface {
			if ok, _ := path.Match(r.Tool, t.Name); ok {
				matched = append(matched, t)
			}
		}
		if len(matched) == 0 {
			msg := fmt.Sprintf("no tool of this run matches %q, so the rule never applies", r.Tool)
			if near := nearestTool(r.Tool, surface); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			out = append(out, Problem{Rule: r, Message: msg})
			continue
		}
		for _, p := range sortedKeys(r.Params) {
			if !anyTakes(matched, p) {
				out = append(out, Problem{Rule: r,
					Message: fmt.Sprintf("%s takes no parameter %q, so the rule never applies", r.Tool, p)})
			}
		}
	}
	return out
}

// anyTakes reports whether one of ts has the parameter p. A tool whose
// schema lists no properties may take anything.
func anyTakes(ts []Tool, p string) bool {
	for _, t := range ts {
		props, known := schemaProperties(t.Schema)
		if !known || props[p] {
			return true
		}
	}
	return false
}

func schemaProperties(schema any) (map[string]bool, bool) {
	raw, ok := schema.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(schema)
		if err != nil {
			return nil, false
		}
		raw = b
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil || s.Properties == nil {
		return nil, false
	}
	props := make(map[string]bool, len(s.Properties))
	for k := range s.Properties {
		props[k] = true
	}
	return props, true
}

// nearestTool returns the tool name closest to name when it is close
// enough to be a likely typo.
func nearestTool(name string, surface []Tool) string {
	best, bestDist := "", 3
	for _, t := range surface {
		if d := editDistance(name, t.Name); d < bestDist {
			best, bestDist = t.Name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
