package session

import "time"

// NewID returns a new session id, as Create makes one. A host that must
// name a session before its first line is written (an editor is told the
// id when the session opens) passes it in Meta.ID.
func NewID() string { return newID(time.Now()) }
