package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Remove deletes session id. A session another process holds (its lock,
// see Lock) is refused with ErrLocked; a missing one is ErrNotFound.
func (s *Store) Remove(ctx context.Context, id string) error {
	unlock, err := s.Lock(ctx, id)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
		return fmt.Errorf("session: remove %s: %w", id, err)
	}
	return nil
}
