// Package skills finds and parses skills: directories holding a SKILL.md
// file with YAML front matter (name, description, optional metadata), the
// Agent Skills layout Claude Code and Codex use. It owns discovery across
// the skill roots and their precedence, the catalogue of names and
// descriptions that goes into the managed system prompt, and the load_skill
// tool that hands a skill's instructions and files to the model.
//
// A Catalogue is a tool source for the engine: it offers load_skill, adds
// its catalogue text to the system prompt and reports malformed skill files
// as diagnostics. With no skills it offers nothing and adds nothing.
package skills
