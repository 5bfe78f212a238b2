// Package sessiontest checks that a session.Backend keeps sessions the way
// the engine and its hosts rely on: what session.Store does with files,
// another backend must do with its own storage. A backend's tests call Run
// with a function that opens an empty backend.
package sessiontest
