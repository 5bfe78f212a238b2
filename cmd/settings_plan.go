package cmd

import (
	"strings"

	"github.com/llmrt/llmrt/providers/catalog"
)

// applyPlanModel checks the plan_model setting, read as /model reads its
// argument: provider/model names a provider and its model, anything else
// a model of the provider in use. A provider without its key is refused
// now, not at the first planning turn.
func (s *settings) applyPlanModel() error {
	v := strings.TrimSpace(deref(s.cfg.PlanModel))
	if v == "" {
		return nil
	}
	where := s.cfg.Where("plan_model")
	provider, model := "", v
	if p, m, ok := strings.Cut(v, "/"); ok {
		if _, known := catalog.Lookup(p); known {
			provider, model = p, m
		}
	}
	if provider != "" && model == "" {
		spec, _ := catalog.Lookup(provider)
		if model = spec.DefaultModel; model == "" {
			return usageErrorf("%s: provider %s needs a model name (write %s/NAME)", where, provider, provider)
		}
	}
	if provider != "" && provider != s.provider {
		if _, err := catalog.New(provider, s.providerBackend(provider)); err != nil {
			why := strings.TrimPrefix(err.Error(), provider+": ")
			return usageErrorf("%s: cannot plan with %s/%s: %s (or name a model of %s)", where, provider, model, why, s.provider)
		}
	}
	s.planProvider, s.planModel = provider, model
	return nil
}
