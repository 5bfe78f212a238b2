package cmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/llmrt/llmrt/providers"
	"github.com/llmrt/llmrt/providers/catalog"
	"github.com/llmrt/llmrt/ui"
)

// The menus of /model and /resume. The screen asks for them off its loop,
// maybe while a turn runs, so they read a snapshot of the provider
// (taken when the chat opens and after each /model), never the settings
// a turn is using.

// modelPick is what the /model menu lists from: the provider in use and
// the models each provider said it serves, asked once per chat.
type modelPick struct {
	mu       sync.Mutex
	provider string
	model    string
	backend  catalog.Settings
	others   map[string]catalog.Settings // the other providers' settings, for "no key" notes
	models   map[string][]string
	dir      string // the working directory, for /resume's order
}

// modelListWait bounds asking a provider for its models.
const modelListWait = 5 * time.Second

// notePick records the provider in use; called with the chat's lock
// held, when it opens and after /model.
func (c *chatHost) notePick() {
	s := c.h.s
	c.pick.mu.Lock()
	defer c.pick.mu.Unlock()
	c.pick.provider, c.pick.model, c.pick.backend, c.pick.dir = s.provider, s.model, s.backend, s.workDir
	if c.pick.others == nil {
		c.pick.others = map[string]catalog.Settings{}
		for _, name := range catalog.Names() {
			if name != s.provider {
				c.pick.others[name] = s.providerBackend(name)
			}
		}
	}
}

// modelChoices lists the models of the provider in use (current first
// marked), then each other provider at its default model, saying which
// have no key.
func (c *chatHost) modelChoices(ctx context.Context) []ui.Choice {
	c.pick.mu.Lock()
	provider, model, backend := c.pick.provider, c.pick.model, c.pick.backend
	known, asked := c.pick.models[provider]
	c.pick.mu.Unlock()
	if !asked {
		known = listModels(ctx, provider, backend)
		c.pick.mu.Lock()
		if c.pick.models == nil {
			c.pick.models = map[string][]string{}
		}
		c.pick.models[provider] = known
		c.pick.mu.Unlock()
	}
	out := []ui.Choice{{Value: model, Desc: provider + " · in use"}}
	for _, m := range known {
		if m != model {
			out = append(out, ui.Choice{Value: m})
		}
	}
	c.pick.mu.Lock()
	defer c.pick.mu.Unlock()
	for _, name := range catalog.Names() {
		spec, _ := catalog.Lookup(name)
		if name == provider || spec.DefaultModel == "" {
			continue
		}
		desc := "another provider, at its default model"
		if _, err := catalog.New(name, c.pick.others[name]); err != nil {
			var se *providers.SetupError
			switch {
			case errors.As(err, &se) && se.Message == "":
				desc = "no key: set " + strings.Join(se.Vars, " or ")
			case errors.As(err, &se):
				desc = "not set up: " + se.Message
			}
		}
		out = append(out, ui.Choice{Value: name + "/" + spec.DefaultModel, Desc: desc})
	}
	return out
}

// found says what the chat found to work with, for its first note: MCP
// servers (started with the first turn) and skills.
func (c *chatHost) found() string {
	var parts []string
	if n := len(mcpStatuses(c.h.s)); n > 0 {
		parts = append(parts, plural(n, "MCP server", "MCP servers"))
	}
	if cat := c.h.s.skills; cat != nil {
		if n := len(cat.Skills()); n > 0 {
			parts = append(parts, plural(n, "skill", "skills")+" (/skills)")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " · ")
}

// plural is n with the noun that fits it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listModels asks provider for its models; none when it cannot say.
func listModels(ctx context.Context, provider string, b catalog.Settings) []string {
	p, err := catalog.New(provider, b)
	if err != nil {
		return nil
	}
	lister, ok := p.(providers.ModelLister)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, modelListWait)
	defer cancel()
	models, err := lister.SupportedModels(ctx)
	if err != nil {
		return nil
	}
	return models
}

// sessionChoices lists saved sessions for /resume: this directory's
// first, newest first, each with its age and title; others with their
// directory.
func (c *chatHost) sessionChoices(context.Context) []ui.Choice {
	if c.h.store == nil {
		return nil
	}
	list, err := c.h.store.List()
	if err != nil {
		return nil
	}
	c.pick.mu.Lock()
	dir := c.pick.dir
	c.pick.mu.Unlock()
	var here, there []ui.Choice
	now := time.Now()
	for _, s := range list {
		title := s.Title
		if title == "" {
			title = "(no prompt)"
		}
		desc := ui.Ago(now.Sub(s.Updated)) + " · " + title // the menu puts it on one line, cut to fit
		if s.WorkDir == dir {
			here = append(here, ui.Choice{Value: s.ID, Desc: desc})
			continue
		}
		there = append(there, ui.Choice{Value: s.ID, Desc: desc + " · in " + filepath.Base(s.WorkDir)})
	}
	return append(here, there...)
}
