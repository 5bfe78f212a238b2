// Package sandbox confines the processes an agent starts — the commands of
// shell_cmd, the programs run_code starts, MCP stdio servers that opt in —
// with the operating system's own mechanisms, so a command a person allowed
// still cannot write outside the workspace or reach the network.
//
// Modes:
//   - off: no confinement.
//   - read-only: the process reads the whole filesystem but writes only to
//     a private temporary directory made for it (TMPDIR points there).
//   - workspace-write: the process reads the whole filesystem and writes
//     inside the workspace, the system temporary directory and the extra
//     paths the policy lists.
//
// In both confined modes the network is off unless the policy allows it.
//
// On Linux the filesystem rules are Landlock rules. The network is cut by
// a new network namespace where llmrt may make one (as root); for every
// other user, who cannot make one from a multi-threaded process, by a
// seccomp filter that lets the command create Unix sockets only (so TCP,
// UDP and DNS fail with "network is unreachable"), with Landlock's TCP
// rules besides. The rules are applied to one throw-away OS thread, which
// then starts the command: the child inherits the restriction and llmrt's
// own threads never carry it. On macOS the command runs under sandbox-exec with a Seatbelt
// profile. Elsewhere confined modes are not available.
//
// Files the policy hides (Policy.Hidden: the .env llmrt read its keys
// from) read as empty on Linux, where the command runs in a mount
// namespace of its own with /dev/null mounted over each; since Landlock
// may not mount and only root may make that namespace from llmrt's
// threads, such a command is started through a helper, the same
// executable re-run by this package (see hide_linux.go). On macOS the
// profile denies reading them.
//
// What the sandbox does not protect: reading (a confined command can read
// any other file the user can, including keys in the home directory),
// what the command does inside the workspace, and anything done through a
// process that was already running outside the sandbox (a daemon reached
// over a Unix socket, for example).
package sandbox
