package engine

import (
	"context"
	"iter"
)

// The one-shot forms of Generate, Complete and Stream take the providers
// of one call as a map, for a program that makes a call now and then and
// keeps no Runtime (seed llm-runtime's generate({providers, ...})). Each
// builds a Runtime from the map alone, as Config.Providers, runs the
// request and closes it. The request names its provider, or leaves it
// empty when the map holds one, and always names its model. A program
// with tool sources (MCP servers, skills), defaults or many calls keeps a
// Runtime instead: it starts its sources once and caches schemas.

// Generate is Runtime.Generate with the providers of this call.
func Generate(ctx context.Context, providers map[string]Provider, req Request) (Response, error) {
	rt, err := New(Config{Providers: providers})
	if err != nil {
		return Response{}, err
	}
	defer rt.Close()
	return rt.Generate(ctx, req)
}

// Complete is Runtime.Complete with the providers of this call.
func Complete(ctx context.Context, providers map[string]Provider, req Request) (Result, error) {
	rt, err := New(Config{Providers: providers})
	if err != nil {
		return Result{}, err
	}
	defer rt.Close()
	return rt.Complete(ctx, req)
}

// Stream is Runtime.Stream with the providers of this call.
func Stream(ctx context.Context, providers map[string]Provider, req Request) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		rt, err := New(Config{Providers: providers})
		if err != nil {
			yield(failedEvent(err, req.Messages))
			return
		}
		defer rt.Close()
		for ev := range rt.Stream(ctx, req) {
			if !yield(ev) {
				return
			}
		}
	}
}
