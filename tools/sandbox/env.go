package sandbox

import "os"

// setEnv returns env (the process environment when nil) with key set to
// value.
func setEnv(env []string, key, value string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) > len(key) && kv[:len(key)+1] == key+"=" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, key+"="+value)
}
