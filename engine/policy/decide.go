package policy

// Policy is what decides tool calls: a mode and the rules that stand.
// It holds no state of its own; the caller keeps the rules (a person may
// add to them) and which allow_once rules are spent, and asks the person
// when a Verdict says so.
type Policy struct {
	Mode  Mode
	Rules []Rule
	// Spent reports the allow_once rules, by index in Rules, that earlier
	// calls used up; nil means none is.
	Spent func(i int) bool
	// AllowSandboxed lets ask mode run calls of tools whose processes the
	// OS sandbox confines (Call.Sandboxed) as auto mode would.
	AllowSandboxed bool
	// Paths gives the forms in which a path argument (path, directory,
	// file, cwd) is matched against rules: the workspace-relative clean
	// path, as written and as it resolves through symlinks, however the
	// model spelled it (absolute, ./, //, x/..), and the same as absolute
	// paths for rules written with absolute globs. A deny rule matches
	// when one form does, an allow rule only when every form does. Nil
	// matches the argument as written, cleaned.
	Paths func(p string) []string
}

// Call is a tool call as a policy sees it.
type Call struct {
	Tool string
	// Args are the call's validated arguments.
	Args map[string]any
	// Mutating reports a tool that changes things (kind write or
	// external_action): only deny rules apply to the others.
	Mutating bool
	// Sandboxed reports a tool whose processes the OS sandbox confines.
	Sandboxed bool
}

// Outcome is what a policy decided about a call.
type Outcome int

// Outcomes. The zero Outcome is Undecided: a verdict nobody filled in
// leaves the call to a person.
const (
	// Undecided: no rule settles the call and the mode wants a person to
	// decide it.
	Undecided Outcome = iota
	// Allowed: the call runs.
	Allowed
	// Denied: the deny rule Verdict.Rule forbids the call.
	Denied
	// ReadOnly: the mode is read or plan and the call changes things.
	ReadOnly
	// Unchecked: the mode would run the call, but the deny rule
	// Verdict.Rule cannot be checked against its command line, for the
	// reason in Verdict.Opaque, so it may run what the rule forbids: a
	// person decides it, or it is refused.
	Unchecked
)

// Verdict is a policy's decision about one call and what it rests on.
type Verdict struct {
	Outcome Outcome
	// Rule is the deny rule of a Denied or Unchecked verdict.
	Rule Rule
	// Opaque says, for Unchecked, what hides the line's commands: it does
	// not parse, or a program is decided only when it runs.
	Opaque string
	// Spent lists the allow_once rules, by index in Policy.Rules, an
	// Allowed call uses up.
	Spent []int
}

// Decide decides a call, in this order: deny rules (for every call), then
// for mutating calls read mode, plan mode, allow rules, auto mode (or a
// sandboxed tool under AllowSandboxed), and last a person. A command line
// is allowed by rules only when every command it runs is allowed.
//
// Plan mode refuses mutating calls as read mode does, with one exception:
// a call of a sandboxed tool (a command the host runs under the read-only
// sandbox while planning) that an allow rule allows. The kernel, not this
// decision, keeps such a command from writing.
func (p Policy) Decide(c Call) Verdict {
	v := p.view(c)
	if r, ok := p.denying(v); ok {
		return Verdict{Outcome: Denied, Rule: r}
	}
	if !c.Mutating {
		return Verdict{Outcome: Allowed}
	}
	if p.Mode == ModeRead {
		return Verdict{Outcome: ReadOnly}
	}
	if v == nil {
		v = p.newView(c)
	}
	if p.Mode == ModePlan && !c.Sandboxed {
		return Verdict{Outcome: ReadOnly}
	}
	ok, used := allowedBy(p.Rules, p.spent, v)
	if p.Mode == ModePlan && !ok {
		return Verdict{Outcome: ReadOnly}
	}
	if ok {
		var spent []int
		for _, i := range used {
			if p.Rules[i].Action == AllowOnce {
				spent = append(spent, i)
			}
		}
		return Verdict{Outcome: Allowed, Spent: spent}
	}
	if p.Mode == ModeAuto || p.AllowSandboxed && c.Sandboxed {
		if r, why, ok := p.uncheckable(v); ok {
			return Verdict{Outcome: Unchecked, Rule: r, Opaque: why}
		}
		return Verdict{Outcome: Allowed}
	}
	return Verdict{Outcome: Undecided}
}

// view is the call as rules see it, built only when a rule will look at
// it: most calls of most runs meet no deny rule.
func (p Policy) view(c Call) *callView {
	for _, r := range p.Rules {
		if r.Action == Deny {
			return p.newView(c)
		}
	}
	return nil
}

func (p Policy) newView(c Call) *callView {
	v := newCallView(c.Tool, c.Args)
	v.paths = p.Paths
	return v
}

func (p Policy) spent(i int) bool {
	return p.Rules[i].Action == AllowOnce && p.Spent != nil && p.Spent(i)
}

// denying returns the first deny rule that matches the call. Deny rules
// apply to every tool and win over allow rules; one with a command
// pattern forbids a line when any command in it matches.
func (p Policy) denying(c *callView) (Rule, bool) {
	for _, r := range p.Rules {
		if r.Action == Deny && r.denies(c) {
			return r, true
		}
	}
	return Rule{}, false
}

// uncheckable finds a deny rule with a command pattern that cannot be
// checked against the call's command line, and the part that defeats it:
// a program known only when the line runs ($X, $(...), a glob, a shell
// reading its commands from stdin) or a line that does not parse. Such a
// line may run what the rule forbids, so it does not run unasked.
func (p Policy) uncheckable(c *callView) (Rule, string, bool) {
	if !c.hasCommand {
		return Rule{}, "", false
	}
	for _, r := range p.Rules {
		if _, ok := r.Params["command"]; !ok || r.Action != Deny {
			continue
		}
		if !r.matchesExcept(c, "command") {
			continue
		}
		if part, ok := c.commands().opaque(); ok {
			return r, part, true
		}
	}
	return Rule{}, "", false
}
