package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/llmrt/llmrt/tools"
)

// AskFunc puts a server's elicitation request, as ask_user_input
// questions, to a person. An error means the person cancelled.
type AskFunc func(ctx context.Context, in tools.AskInput) (tools.Answer, error)

// elicitTries is how often a form is put again after an answer that does
// not fit it (text where a number was asked for, a required field left
// empty) before the request is declined.
const elicitTries = 3

// Option ids with a meaning of their own in an elicitation form.
const (
	optDefault = "default"
	optEmpty   = "empty"
	optDecline = "decline"
)

// elicitor answers one server's elicitation requests: through the
// source's Ask when a person can answer, else declined.
type elicitor struct{ c *conn }

// Elicit implements client.ElicitationHandler. A declined or cancelled
// request is a normal answer, never an error: the server decides what to
// do without the information.
func (e elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	ask := e.c.src.askFunc()
	if ask == nil || req.Params.Mode == "url" {
		return elicitAnswer(mcp.ElicitationResponseActionDecline, nil), nil
	}
	f, err := parseForm(e.c.cfg.Name, req.Params)
	if err != nil {
		return elicitAnswer(mcp.ElicitationResponseActionDecline, nil), nil
	}
	e.c.src.askMu.Lock() // one form on the screen at a time
	defer e.c.src.askMu.Unlock()
	e.c.sayToCalls(fmt.Sprintf("waiting for your answer to MCP server %s", e.c.cfg.Name))
	problem := ""
	for range elicitTries {
		a, err := ask(ctx, f.input(problem))
		if err != nil {
			return elicitAnswer(mcp.ElicitationResponseActionCancel, nil), nil
		}
		if a.Skipped {
			return elicitAnswer(mcp.ElicitationResponseActionDecline, nil), nil
		}
		content, declined, err := f.content(a)
		switch {
		case declined:
			return elicitAnswer(mcp.ElicitationResponseActionDecline, nil), nil
		case err == nil:
			return elicitAnswer(mcp.ElicitationResponseActionAccept, content), nil
		}
		problem = err.Error()
	}
	return elicitAnswer(mcp.ElicitationResponseActionDecline, nil), nil
}

func elicitAnswer(action mcp.ElicitationResponseAction, content map[string]any) *mcp.ElicitationResult {
	r := &mcp.ElicitationResult{}
	r.Action = action
	if content != nil {
		r.Content = content
	}
	return r
}

// form is an elicitation request's flat object schema, a field per
// property.
type form struct {
	server, message string
	fields          []field
}

// field is one property: a choice among values (enum, oneOf, boolean) or
// free text read as its type.
type field struct {
	Name        string `json:"-"`
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Default     any    `json:"default"`
	Enum        []any  `json:"enum"`
	EnumNames   []string
	OneOf       []struct {
		Const any    `json:"const"`
		Title string `json:"title"`
	} `json:"oneOf"`
	Items *struct {
		Enum  []any `json:"enum"`
		AnyOf []struct {
			Const any    `json:"const"`
			Title string `json:"title"`
		} `json:"anyOf"`
	} `json:"items"`
	required bool
	values   []any    // the choices' values, when the field is a choice
	labels   []string // and what the person sees of them
}

// parseForm reads a form-mode request's schema. mcp-go hands the schema
// over as a map, so the server's order of properties is lost: required
// fields come first, in the order the schema lists them as required, then
// the others by name.
func parseForm(server string, p mcp.ElicitationParams) (*form, error) {
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties map[string]field `json:"properties"`
		Required   []string         `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	rank := map[string]int{}
	for i, n := range s.Required {
		if _, ok := rank[n]; !ok {
			rank[n] = i
		}
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, iReq := rank[names[i]]
		rj, jReq := rank[names[j]]
		switch {
		case iReq && jReq:
			return ri < rj
		case iReq != jReq:
			return iReq
		}
		return names[i] < names[j]
	})
	f := &form{server: server, message: p.Message}
	for _, n := range names {
		fd := s.Properties[n]
		fd.Name = n
		_, fd.required = rank[n]
		fd.choices()
		f.fields = append(f.fields, fd)
	}
	return f, nil
}

// choices fills values and labels for a field answered by picking one.
func (f *field) choices() {
	add := func(v any, label string) {
		if label == "" {
			label = fmt.Sprint(v)
		}
		f.values, f.labels = append(f.values, v), append(f.labels, label)
	}
	switch {
	case len(f.OneOf) > 0:
		for _, o := range f.OneOf {
			add(o.Const, o.Title)
		}
	case len(f.Enum) > 0:
		for i, v := range f.Enum {
			label := ""
			if i < len(f.EnumNames) {
				label = f.EnumNames[i]
			}
			add(v, label)
		}
	case f.Type == "boolean":
		add(true, "Yes")
		add(false, "No")
	case f.Type == "array" && f.Items != nil:
		for _, o := range f.Items.AnyOf {
			add(o.Const, o.Title)
		}
		for _, v := range f.Items.Enum {
			add(v, "")
		}
	}
}

// input is the form as questions, the server's default first in each so
// that accepting the first choice everywhere accepts the defaults.
// problem, when set, says why the last answer was refused.
func (f *form) input(problem string) tools.AskInput {
	in := tools.AskInput{AllowSkip: true}
	for i, fd := range f.fields {
		q := tools.Question{ID: fd.Name, Header: oneLineText(cmpOr(fd.Title, fd.Name)), Question: cmpOr(fd.Description, cmpOr(fd.Title, fd.Name))}
		if i == 0 {
			q.Question = fmt.Sprintf("MCP server %s asks: %s\n%s", f.server, f.message, q.Question)
			if problem != "" {
				q.Question = "That answer could not be used (" + problem + ").\n" + q.Question
			}
		}
		if fd.Default != nil {
			q.Options = append(q.Options, tools.Choice{ID: optDefault, Label: fd.label(fd.Default), Description: "the server's default"})
		}
		for j, v := range fd.values {
			if fd.Default != nil && fmt.Sprint(v) == fmt.Sprint(fd.Default) {
				continue
			}
			q.Options = append(q.Options, tools.Choice{ID: "v" + strconv.Itoa(j), Label: fd.labels[j]})
		}
		if fd.values == nil || fd.Type == "array" {
			q.AllowOther = true
		}
		if !fd.required {
			q.Options = append(q.Options, tools.Choice{ID: optEmpty, Label: "Leave empty"})
		}
		if len(q.Options) < 2 {
			q.Options = append(q.Options, tools.Choice{ID: optDecline, Label: "Decline", Description: "send the server nothing"})
		}
		in.Questions = append(in.Questions, q)
	}
	return in
}

// label shows a value as the person sees it: a choice's label, else the
// value itself.
func (f *field) label(v any) string {
	for i, c := range f.values {
		if fmt.Sprint(c) == fmt.Sprint(v) {
			return f.labels[i]
		}
	}
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, x := range list {
			parts[i] = f.label(x)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
