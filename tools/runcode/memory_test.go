package runcode

import (
	"strings"
	"testing"
)

// testMemory is the memory limit of the tests' programs: small, so the
// programs that would pass it stop early and cheaply.
const testMemory = 32 << 20

// TestMemoryBombsFail: each way of asking for far more memory than the
// limit, in one step or step by step, ends the program with an error
// naming the limit, and the process lives on.
func TestMemoryBombsFail(t *testing.T) {
	h := newHarness(t, Options{MaxMemoryBytes: testMemory})
	for _, code := range []string{
		"x = [1] * (1 << 24)",
		"x = (1 << 24) * [1]",
		"x = [1]\nx *= 1 << 24",
		"x = (1,) * (1 << 24)",
		"x = 'ab' * (1 << 26)",
		"x = b'ab' * (1 << 26)",
		"x = list(range(1 << 24))",
		"x = tuple(range(1 << 24))",
		"x = sorted(range(1 << 24))",
		"x = set(range(1 << 24))",
		"x = dict(enumerate(range(1 << 24)))",
		"x = [1]\nfor i in range(40):\n    x = x + x",
		"x = [1]\nfor i in range(40):\n    x += x",
		"x = [1]\nfor i in range(40):\n    x.extend(x)",
		"x = 'ab'\nfor i in range(40):\n    x = x + x",
		"x = []\nfor i in range(1 << 24):\n    x.append(str(i))",
		"x = [i for i in range(1 << 24)]",
		"s = 'x' * (1 << 20)\nx = ''.join([s] * 1000)",
		"s = 'x' * (1 << 20)\nx = str([s] * 1000)",
		"s = 'x' * (1 << 20)\nx = json.encode([s] * 1000)",
		"s = 'x' * (1 << 20)\nx = '%s' % ([s] * 1000,)",
		"s = 'x' * (1 << 20)\nx = '{}'.format([s] * 1000)",
		"s = 'x' * (1 << 20)\nprint([s] * 1000)",
		"s = 'x' * (1 << 22)\nx = s.replace('x', 'xxxxxxxxxxxxxxxx')",
		"s = 'x ' * (1 << 22)\nx = s.split(' ')",
		"x = 1 << 500\nfor i in range(40):\n    x = x * x",
	} {
		res := h.run(t.Context(), code, 60_000)
		if res.ReturnCode != 1 || !strings.Contains(res.Error, "memory limit of 32 MiB") {
			t.Errorf("%q: return_code %d, error %q; want the memory limit", code, res.ReturnCode, res.Error)
		}
	}
}

// TestMemoryGuardsKeepSemantics: the guarded operators and functions
// behave as Starlark's own: in-place list +=, aliasing, errors, keyword
// arguments.
func TestMemoryGuardsKeepSemantics(t *testing.T) {
	h := newHarness(t, Options{MaxMemoryBytes: testMemory})
	res := h.run(t.Context(), `
x = [1, 2]
y = x
x += [3]
print(y, x, [0] * 3, 3 * "ab", (1,) * 2, 2 * 3, 1 + 2, "a" + "b", [1] + [2], "%d-%s" % (4, "x"))
a = [1, 2]
a[0] *= 10
a[1] += 5
print(a, "a,b".split(","), "-".join(["p", "q"]), "aXa".replace("X", "Y", 1), "{}+{}".format(1, 2))
print(sorted([3, 1, 2], reverse=True), list(range(3)), dict(a=1), set([1]) if False else "", tuple("ab".elems()))
s = "t"
s += "u"
print(s, str([1]), repr("q"), json.encode({"k": [1]}))
`, 0)
	want := "[1, 2, 3] [1, 2, 3] [0, 0, 0] ababab (1, 1) 6 3 ab [1, 2] 4-x\n" +
		"[10, 7] [\"a\", \"b\"] p-q aYa 1+2\n" +
		"[3, 2, 1] [0, 1, 2] {\"a\": 1}  (\"a\", \"b\")\n" +
		"tu [1] \"q\" {\"k\":[1]}\n"
	if res.Error != "" || res.Stdout != want {
		t.Errorf("got stdout %q, error %q\nwant %q", res.Stdout, res.Error, want)
	}
	for _, tc := range []struct{ code, want string }{
		{"x = 'a' * 'b'", "line 1: unknown binary op: string * string"},
		{"x = 1 + 'b'", "line 1: unknown binary op: int + string"},
		{"x = 'a'.replace(1, 2)", "line 1: replace: for parameter 1: got int, want string"},
		{"x = [1]\nx.nosuch(1)", "line 2: list has no .nosuch field or method"},
		{"x = (1,)\nx.extend([2])", "line 2: tuple has no .extend field or method"},
		{"x = [1]\ndef f():\n    x += [2]\nf()", "line 3: local variable x referenced before assignment"},
	} {
		res := h.run(t.Context(), tc.code, 0)
		if res.ReturnCode != 1 || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%q: return_code %d, error %q; want %q", tc.code, res.ReturnCode, res.Error, tc.want)
		}
	}
}

// TestMemoryLimitIsDescribed: the model is told the limit.
func TestMemoryLimitIsDescribed(t *testing.T) {
	if d := newHarness(t, Options{}).tool.Description; !strings.Contains(d, "memory (256 MiB)") {
		t.Errorf("the description should state the memory limit:\n%s", d)
	}
}

// TestGuardsRefuseWhatTheyCannotGuard: a program may not use the guards'
// names, nor an augmented assignment whose target could not be copied.
func TestGuardsRefuseWhatTheyCannotGuard(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ code, want string }{
		{"_llmrt_mul = 1", "line 1:1: syntax error: names starting with _llmrt_ are reserved"},
		{"d = {}\nd[[k for k in 'a'][0]] += 1", "line 2:24: syntax error: write this as x = x + y"},
	} {
		res := h.run(t.Context(), tc.code, 0)
		if res.ReturnCode != 1 || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%q: return_code %d, error %q; want %q", tc.code, res.ReturnCode, res.Error, tc.want)
		}
	}
}
