package cmd

import (
	"encoding/json"

	"github.com/llmrt/llmrt/cmd/config"
	"github.com/llmrt/llmrt/engine/session"
	"github.com/llmrt/llmrt/tools/sandbox"
)

// resumedLayer is the layer a resumed session gives: the options it
// recorded, and the provider, model and base URL it ran on. A sandbox mode
// this machine cannot give is left to the other layers.
func resumedLayer(m session.Meta) config.Layer {
	var l config.Layer
	if len(m.Options) > 0 {
		// Written by llmrt; a record it cannot read gives nothing.
		_ = json.Unmarshal(m.Options, &l)
		var older struct {
			SkillsDirs []string `json:"skills_dir"` // the key before skills_dirs
		}
		if json.Unmarshal(m.Options, &older) == nil {
			l.SkillsDirs = append(l.SkillsDirs, older.SkillsDirs...)
		}
	}
	l = l.Recorded()
	for _, v := range []struct {
		dst **string
		val string
	}{{&l.Provider, m.Provider}, {&l.Model, m.Model}, {&l.BaseURL, m.BaseURL}} {
		if v.val != "" {
			*v.dst = &v.val
		}
	}
	if l.Sandbox != nil {
		if mode, err := sandbox.ParseMode(*l.Sandbox); err != nil || (mode != sandbox.Off && sandbox.Available() != nil) {
			l.Sandbox = nil
		}
	}
	return l
}

// sessionOptions returns the options a new session records.
func (s *settings) sessionOptions() json.RawMessage {
	data, err := json.Marshal(s.recorded)
	if err != nil || string(data) == "{}" {
		return nil
	}
	return data
}
