// Package sse reads server-sent events (the text/event-stream format) for
// the provider adapters. It reads the way github.com/tmaxmax/go-sse's Read
// does, field for field, but hands out each event's data without copying
// it when it is one line (a slice of its read buffer), or joined in a
// buffer it reuses, so a stream of a hundred thousand small events costs
// no allocation per event: the adapters decode the data before asking for
// the next event.
package sse
