package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
)

// option is one field of Layer as its tags describe it.
type option struct {
	index     int
	name      string // the Go field name
	key       string // the config key; "" for a command-line option
	flag      string
	short     string
	noopt     string
	env       string
	help      string
	session   bool // recorded by sessions
	noconfig  bool // not a config file key
	path      bool // a flag's paths are made absolute
	trust     bool // a project sets it only once trusted
	noproject bool // a project never sets it
}

// options lists Layer's fields once.
var options = sync.OnceValue(func() []option {
	t := reflect.TypeFor[Layer]()
	out := make([]option, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		o := option{index: i, name: f.Name, flag: f.Tag.Get("flag"), short: f.Tag.Get("short"),
			noopt: f.Tag.Get("noopt"), env: f.Tag.Get("env"), help: f.Tag.Get("help")}
		if k, _, _ := strings.Cut(f.Tag.Get("json"), ","); k != "-" {
			o.key = k
		}
		for _, s := range strings.Split(f.Tag.Get("scope"), ",") {
			switch s {
			case "session":
				o.session = true
			case "noconfig":
				o.noconfig = true
			case "path":
				o.path = true
			case "trust":
				o.trust = true
			case "noproject":
				o.noproject = true
			}
		}
		out = append(out, o)
	}
	return out
})

// configKeys are the keys a config file may hold: the options' and those
// other readers of the same file own (MCP servers, hooks, the schema
// link).
var configKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"mcpServers": true, "servers": true, "hooks": true, "$schema": true}
	for _, o := range options() {
		if o.key != "" && !o.noconfig {
			m[o.key] = true
		}
	}
	return m
})

// RegisterFlags defines a flag on fs for every option that has one. A
// flag sets its field in l when it is given, and only then, so l is the
// command line's layer.
func RegisterFlags(fs *pflag.FlagSet, l *Layer) {
	v := reflect.ValueOf(l).Elem()
	for _, o := range options() {
		if o.flag == "" {
			continue
		}
		val := &flagValue{field: v.Field(o.index), abs: o.path}
		f := fs.VarPF(val, o.flag, o.short, o.help)
		switch {
		case o.noopt != "":
			f.NoOptDefVal = o.noopt
		case val.Type() == "bool":
			f.NoOptDefVal = "true"
		}
	}
}

// flagValue is a pflag.Value over one Layer field.
type flagValue struct {
	field reflect.Value
	abs   bool
}

func (v *flagValue) Set(s string) error { return setField(v.field, s, v.abs) }

func (v *flagValue) Type() string {
	switch v.field.Type() {
	case reflect.TypeFor[*string]():
		return "string"
	case reflect.TypeFor[*int]():
		return "int"
	case reflect.TypeFor[*float64]():
		return "float"
	case reflect.TypeFor[*bool]():
		return "bool"
	case reflect.TypeFor[*Duration]():
		return "duration"
	case reflect.TypeFor[[]string]():
		return "stringArray"
	}
	return v.field.Type().String()
}

func (v *flagValue) String() string {
	f := v.field
	switch {
	case f.Kind() == reflect.Pointer && f.IsNil(), f.Kind() == reflect.Slice && f.Len() == 0:
		return ""
	case f.Type() == reflect.TypeFor[*Duration]():
		return f.Interface().(*Duration).Std().String()
	case f.Kind() == reflect.Pointer:
		return fmt.Sprint(f.Elem().Interface())
	}
	return "[" + strings.Join(f.Interface().([]string), ",") + "]"
}

// setField parses s into the field: a pointer gets a new value, a list
// one more item (an absolute path when abs).
func setField(f reflect.Value, s string, abs bool) error {
	switch p := f.Addr().Interface().(type) {
	case **string:
		*p = &s
	case **int:
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		*p = &n
	case **float64:
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		*p = &x
	case **bool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		*p = &b
	case **Duration:
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not a duration (write e.g. 5m)", s)
		}
		*p = (*Duration)(&d)
	case *[]string:
		if abs {
			if a, err := filepath.Abs(s); err == nil {
				s = a
			}
		}
		*p = append(*p, s)
	default:
		return fmt.Errorf("option of type %s cannot be set from text", f.Type())
	}
	return nil
}

// isSet reports whether a layer's field holds a value.
func isSet(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Pointer, reflect.Map:
		return !f.IsNil()
	case reflect.Slice:
		return f.Len() > 0
	}
	return !f.IsZero()
}

// overlay sets into dst the fields src sets: a value replaces the one
// below it, a list adds the items it does not hold yet, a map its keys.
// It returns the option names src set.
func overlay(dst, src *Layer) []option {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	var set []option
	for _, o := range options() {
		sf := s.Field(o.index)
		if !isSet(sf) {
			continue
		}
		set = append(set, o)
		df := d.Field(o.index)
		switch sf.Kind() {
		case reflect.Slice:
			for i := range sf.Len() {
				item := sf.Index(i)
				if !slices.Contains(df.Interface().([]string), item.String()) {
					df.Set(reflect.Append(df, item))
				}
			}
		case reflect.Map:
			if df.IsNil() {
				df.Set(reflect.MakeMap(df.Type()))
			}
			for _, k := range sf.MapKeys() {
				df.SetMapIndex(k, sf.MapIndex(k))
			}
		default:
			df.Set(sf)
		}
	}
	return set
}

// Recorded returns what a session records of l: the options marked
// session, nothing else.
func (l Layer) Recorded() Layer {
	var out Layer
	v, o := reflect.ValueOf(&out).Elem(), reflect.ValueOf(l)
	for _, opt := range options() {
		if opt.session {
			v.Field(opt.index).Set(o.Field(opt.index))
		}
	}
	return out
}

// forProject returns what a project's config file may set of l: never
// where keys are sent (noproject), and what loosens policy (trust) only
// when trusted. dropped names the keys left out of each kind.
func (l Layer) forProject(trusted bool) (kept Layer, untrusted, never []string) {
	kept = l
	v, src := reflect.ValueOf(&kept).Elem(), reflect.ValueOf(l)
	for _, o := range options() {
		if !isSet(src.Field(o.index)) {
			continue
		}
		switch {
		case o.noproject:
			never = append(never, o.key)
		case o.trust && !trusted:
			untrusted = append(untrusted, o.key)
		default:
			continue
		}
		v.Field(o.index).SetZero()
	}
	return kept, untrusted, never
}

// FromEnv returns the environment's layer: the options with an env
// variable that getenv holds. A value that does not parse is an error
// naming the variable.
func FromEnv(getenv func(string) string) (Layer, error) {
	var l Layer
	v := reflect.ValueOf(&l).Elem()
	for _, o := range options() {
		if o.env == "" {
			continue
		}
		s := strings.TrimSpace(getenv(o.env))
		if s == "" {
			continue
		}
		if err := setField(v.Field(o.index), s, false); err != nil {
			return l, fmt.Errorf("%s: %w", o.env, err)
		}
	}
	return l, nil
}

// Merge returns the layers overlaid in order, each over those before it.
func Merge(layers ...Layer) Layer {
	var out Layer
	for i := range layers {
		overlay(&out, &layers[i])
	}
	return out
}
