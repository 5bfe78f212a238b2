package cmd

// TEMPORARY until the prompts branch lands (cmd/config/rules.go).
func saveProjectRule(dir, rule string) error { return nil }
