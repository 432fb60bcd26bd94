package rules

import "strings"

// LibPath maps the import path of a vendored copy of a package to the
// package's own path, so that the tables recognise vendored libraries
// (issue 13 item 4): GOPATH-era vendor directories
// ("example.com/app/vendor/github.com/hashicorp/consul/api") and godep's
// rewritten imports ("example.com/app/Godeps/_workspace/src/github.com/...").
// Module-mode vendoring keeps the original path and needs nothing. Other
// paths are returned unchanged, without allocating.
func LibPath(path string) string {
	// Most paths have neither marker: one forward search each (vectorised)
	// instead of the backward searches below, on every rule lookup.
	if !strings.Contains(path, "vendor/") && !strings.Contains(path, "Godeps/_workspace/src/") {
		return path
	}
	if i := strings.LastIndex(path, "/Godeps/_workspace/src/"); i >= 0 {
		return path[i+len("/Godeps/_workspace/src/"):]
	}
	if rest, ok := strings.CutPrefix(path, "Godeps/_workspace/src/"); ok {
		return rest
	}
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	if rest, ok := strings.CutPrefix(path, "vendor/"); ok {
		return rest
	}
	return path
}
