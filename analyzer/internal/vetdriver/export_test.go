package vetdriver

// SetVersionSalt lets the external tests give each go vet run its own tool
// ID (see versionSalt).
func SetVersionSalt(s string) { versionSalt = s }
