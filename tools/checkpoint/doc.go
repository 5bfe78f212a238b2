// Package checkpoint keeps snapshots of a workspace taken before each
// change an agent makes, so the workspace can be put back as it was at
// any of them without git and without touching the user's repository.
//
// A Store lives in a directory of its own (one per session). Files are
// kept by the sha256 of their content, once however many snapshots hold
// them. A snapshot is a manifest: path to size, modification time,
// inode, mode and hash. Taking one walks the workspace with the file
// tools' ignore rules and re-hashes only the files whose stat changed
// since the previous snapshot, so an unchanged tree costs one walk.
// Ignored files and files over the size limit are never stored, and a
// restore leaves them alone.
package checkpoint
